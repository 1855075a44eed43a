import { useState, type KeyboardEvent, type RefObject } from "react";

export interface ComposerProps {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  isLoading: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter adds a line; while an answer runs, the button stops it. */
export function Composer({ inputRef, isLoading, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState("");
  const canSend = !isLoading && text.trim() !== "";
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
  return (
    <form
      className="pc-composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
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
      />
      {isLoading ? (
        <button type="button" className="pc-send" data-variant="stop" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" className="pc-send" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
