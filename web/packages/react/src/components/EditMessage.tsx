import { useState } from "react";
import { Button } from "./Button";

export interface EditMessageProps {
  initial: string;
  onSend: (text: string) => void;
  onCancel: () => void;
}

/** A question being edited: sent, it becomes a new version beside the old one. */
export function EditMessage({ initial, onSend, onCancel }: EditMessageProps) {
  const [text, setText] = useState(initial);
  return (
    <form
      className="pc-message pc-edit"
      data-role="user"
      data-editing
      aria-label="Edit message"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim() !== "") onSend(text);
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
          if (event.key === "Escape") onCancel();
        }}
      />
      <div className="pc-edit-buttons">
        <Button type="submit" variant="primary" size="sm" disabled={text.trim() === ""}>
          Submit edit
        </Button>
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
