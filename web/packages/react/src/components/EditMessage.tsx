import { useState } from "react";
import type { AttachmentDrafts } from "../controller/attachments";
import type { AttachmentRef } from "../types";
import { useAttachmentDrafts } from "../useAttachmentDrafts";
import { AttachButton } from "./AttachButton";
import { AttachmentDraftList } from "./AttachmentDraftList";
import { Button } from "./Button";

export interface EditMessageProps {
  initial: string;
  /** The files of the question being edited: they stay unless removed, and more can be added. */
  drafts: AttachmentDrafts;
  onSend: (text: string, attachments: AttachmentRef[]) => void;
  onCancel: () => void;
}

/** A question being edited: sent, it becomes a new version beside the old one. */
export function EditMessage({ initial, drafts, onSend, onCancel }: EditMessageProps) {
  const [text, setText] = useState(initial);
  const attached = useAttachmentDrafts(drafts);
  const canSend = !attached.pending && (text.trim() !== "" || attached.drafts.length > 0);
  const cancel = () => {
    // Files uploaded for this edit are deleted; the question's own stay with it.
    drafts.discard();
    onCancel();
  };
  return (
    <form
      className="pc-message pc-edit"
      data-role="user"
      data-editing
      aria-label="Edit message"
      onSubmit={(event) => {
        event.preventDefault();
        if (!canSend) return;
        const files = drafts.take();
        if (files !== null) onSend(text, files);
      }}
    >
      <textarea
        aria-label="Edited message"
        value={text}
        autoFocus
        onChange={(event) => {
          setText(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") cancel();
        }}
      />
      <AttachmentDraftList drafts={drafts} />
      <div className="pc-edit-buttons">
        <AttachButton onFiles={drafts.add} />
        <Button type="submit" variant="primary" size="sm" disabled={!canSend}>
          Submit edit
        </Button>
        <Button variant="secondary" size="sm" onClick={cancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
