import { Paperclip } from "lucide-react";
import { useRef } from "react";
import { Button } from "./Button";

// What the picker offers first; the server decides from the bytes what it takes.
const ACCEPT = "image/png,image/jpeg,image/webp,image/gif,application/pdf,text/plain,text/markdown,text/csv,application/json,.md,.csv,.json,.txt";

export interface AttachButtonProps {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}

/** Opens the file picker; the files chosen are attached to the message being written. */
export function AttachButton({ onFiles, disabled }: AttachButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="quiet"
        className="pc-attach"
        aria-label="Attach files"
        title="Attach files"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <Paperclip size={16} aria-hidden="true" focusable="false" />
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-attach-input
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // The same file can be chosen again after it was removed.
          event.target.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
