import { Button } from "@pagechat/react";
import { useState } from "react";

export interface NotesEditorProps {
  notes: string;
  /** What the notes are on, for the text box's label ("PMID 123"). */
  what: string;
  /** Saves; resolves when saved, rejects with the reason. */
  onSave: (notes: string) => Promise<void>;
}

/** The user's notes on an article: shown, then edited in place. */
export function NotesEditor({ notes, what, onSave }: NotesEditorProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (editing === null) {
    return (
      <div className="hz-notes">
        {notes ? <p className="hz-notes-text">{notes}</p> : null}
        <button
          type="button"
          className="hz-link-button"
          onClick={() => {
            setEditing(notes);
            setError(null);
          }}
        >
          {notes ? "Edit notes" : "Add notes"}
        </button>
      </div>
    );
  }
  const save = () => {
    setBusy(true);
    onSave(editing).then(
      () => {
        setBusy(false);
        setEditing(null);
      },
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof Error ? e.message : String(e));
      },
    );
  };
  return (
    <div className="hz-notes" data-editing="">
      <textarea
        aria-label={`Notes on ${what}`}
        rows={3}
        value={editing}
        autoFocus
        onChange={(e) => {
          setEditing(e.target.value);
        }}
      />
      {error !== null && (
        <p className="hz-card-error" role="alert">
          {error}
        </p>
      )}
      <div className="hz-row">
        <Button variant="primary" disabled={busy} onClick={save}>
          {busy ? "Saving…" : "Save notes"}
        </Button>
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() => {
            setEditing(null);
          }}
        >
          Cancel
        </Button>
      </div>
    </div>
  );
}
