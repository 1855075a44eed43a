import { useState, type ClipboardEvent, type KeyboardEvent, type RefObject } from "react";
import { filesOf } from "../attachments";
import type { AttachmentDrafts } from "../controller/attachments";
import { useAttachmentDrafts } from "../useAttachmentDrafts";
import { AttachButton } from "./AttachButton";
import { AttachmentDraftList } from "./AttachmentDraftList";

export interface ComposerProps {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  isLoading: boolean;
  /** The files attached to the message (pasted, dropped on the tray or picked). */
  drafts: AttachmentDrafts;
  onSend: (text: string) => void;
  onStop: () => void;
}

/**
 * The message box: Enter sends, Shift+Enter adds a line; while an answer runs, the button stops
 * it. A pasted image, or a picked file, is attached; Send waits until every file is uploaded.
 */
export function Composer({ inputRef, isLoading, drafts, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState("");
  const attached = useAttachmentDrafts(drafts);
  const canSend = !isLoading && !attached.pending && (text.trim() !== "" || attached.drafts.length > 0);
  const submit = () => {
    if (!canSend) return;
    onSend(text);
    setText("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = filesOf(event.clipboardData);
    if (files.length === 0) return;
    // The files are attached; a file's name the clipboard also holds as text is not pasted.
    event.preventDefault();
    drafts.add(files);
  };
  return (
    <form
      className="pc-composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <AttachmentDraftList drafts={drafts} />
      <AttachButton onFiles={drafts.add} />
      <textarea
        ref={inputRef}
        className="pc-input"
        aria-label="Message"
        placeholder="Ask a question…"
        rows={Math.min(6, Math.max(1, text.split("\n").length))}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      {isLoading ? (
        <button type="button" className="pc-send" data-variant="stop" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" className="pc-send" disabled={!canSend} title={attached.pending ? "Waiting for the files to upload" : undefined}>
          Send
        </button>
      )}
    </form>
  );
}
