import { useCallback, useEffect, useState } from "react";
import type { ChatApi } from "../api";
import type { ConversationPublic } from "../types";
import { ConversationItem } from "./ConversationItem";
import { ConversationSearch } from "./ConversationSearch";

export interface ConversationListProps {
  api: ChatApi;
  currentId: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
  onDeleted: (id: string) => void;
}

type Load = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; items: ConversationPublic[] };

/** The user's conversations: open one, start a new one, rename or delete. */
export function ConversationList({ api, currentId, onSelect, onNew, onDeleted }: ConversationListProps) {
  const [load, setLoad] = useState<Load>({ state: "loading" });

  const refresh = useCallback(() => {
    api.listConversations(0, 100).then(
      (list) => {
        setLoad({ state: "ready", items: list.items });
      },
      (error: unknown) => {
        setLoad({ state: "error", message: error instanceof Error ? error.message : "Could not load conversations." });
      },
    );
  }, [api]);

  useEffect(refresh, [refresh]);

  const rename = async (id: string, title: string) => {
    const updated = await api.renameConversation(id, title);
    setLoad((l) => (l.state === "ready" ? { ...l, items: l.items.map((c) => (c.id === id ? updated : c)) } : l));
  };

  const remove = async (id: string) => {
    await api.deleteConversation(id);
    setLoad((l) => (l.state === "ready" ? { ...l, items: l.items.filter((c) => c.id !== id) } : l));
    onDeleted(id);
  };

  return (
    <nav className="pc-conversations" aria-label="Conversations">
      <button type="button" className="pc-button" data-style="primary" onClick={onNew}>
        + New conversation
      </button>
      <ConversationSearch api={api} currentId={currentId} onSelect={onSelect}>
        {load.state === "loading" && <p className="pc-muted">Loading…</p>}
        {load.state === "error" && (
          <p className="pc-error" role="alert">
            {load.message}
          </p>
        )}
        {load.state === "ready" && load.items.length === 0 && <p className="pc-muted">No conversations yet.</p>}
        {load.state === "ready" && load.items.length > 0 && (
          <ul className="pc-conversation-list">
            {load.items.map((c) => (
              <ConversationItem
                key={c.id}
                conversation={c}
                active={c.id === currentId}
                onSelect={() => {
                  onSelect(c.id);
                }}
                onRename={(title) => rename(c.id, title)}
                onDelete={() => remove(c.id)}
              />
            ))}
          </ul>
        )}
      </ConversationSearch>
    </nav>
  );
}
