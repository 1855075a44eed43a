import { Pencil, Trash } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import type { ConversationPublic } from "../types";
import { IconButton } from "./IconButton";

export interface ConversationItemProps {
  conversation: ConversationPublic;
  active: boolean;
  onSelect: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
}

type Mode = "view" | "rename" | "confirm-delete";

export function ConversationItem({ conversation, active, onSelect, onRename, onDelete }: ConversationItemProps) {
  const [mode, setMode] = useState<Mode>("view");
  const [title, setTitle] = useState(conversation.title);
  const [busy, setBusy] = useState(false);

  const run = (work: () => Promise<void>) => {
    setBusy(true);
    work()
      .then(() => {
        setMode("view");
      })
      .catch(() => undefined)
      .finally(() => {
        setBusy(false);
      });
  };

  const onRenameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" && title.trim() !== "") {
      event.preventDefault();
      run(() => onRename(title.trim()));
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      setTitle(conversation.title);
      setMode("view");
    }
  };

  if (mode === "rename") {
    return (
      <li className="pc-conversation" data-active={active ? "" : undefined} data-mode="rename">
        <input
          className="pc-conversation-rename"
          aria-label="Conversation title"
          value={title}
          maxLength={200}
          disabled={busy}
          autoFocus
          onChange={(event) => {
            setTitle(event.target.value);
          }}
          onKeyDown={onRenameKey}
        />
        <button type="button" className="pc-button" disabled={busy || title.trim() === ""} onClick={() => { run(() => onRename(title.trim())); }}>
          Save
        </button>
        <button type="button" className="pc-button" disabled={busy} onClick={() => { setTitle(conversation.title); setMode("view"); }}>
          Cancel
        </button>
      </li>
    );
  }

  return (
    <li className="pc-conversation" data-active={active ? "" : undefined} data-mode={mode}>
      <button type="button" className="pc-conversation-open" aria-current={active ? "true" : undefined} onClick={onSelect}>
        <span className="pc-conversation-title">{conversation.title || "Untitled"}</span>
        <span className="pc-conversation-date">{new Date(conversation.updated_at).toLocaleString()}</span>
      </button>
      {mode === "confirm-delete" ? (
        <>
          <button type="button" className="pc-button" data-style="warning" disabled={busy} onClick={() => { run(onDelete); }}>
            Delete
          </button>
          <button type="button" className="pc-button" disabled={busy} onClick={() => { setMode("view"); }}>
            Keep
          </button>
        </>
      ) : (
        <>
          <IconButton icon={Pencil} label={`Rename ${conversation.title}`} onClick={() => { setMode("rename"); }} />
          <IconButton icon={Trash} label={`Delete ${conversation.title}`} onClick={() => { setMode("confirm-delete"); }} />
        </>
      )}
    </li>
  );
}
