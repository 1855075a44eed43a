import { useEffect, useState, type KeyboardEvent, type ReactNode } from "react";
import type { ChatApi } from "../api";
import type { ConversationSearchHit } from "../types";
import { SearchSnippet } from "./SearchSnippet";

/** The server refuses longer queries (422); the box stops the user first. */
export const MAX_SEARCH_CHARS = 200;
const DEBOUNCE_MS = 200;

export interface ConversationSearchProps {
  api: ChatApi;
  currentId: string | null;
  onSelect: (id: string) => void;
  /** What shows while the box is empty: the plain list of conversations. */
  children: ReactNode;
}

type Outcome =
  | { query: string; status: "done"; items: ConversationSearchHit[]; terms: string[] }
  | { query: string; status: "error"; message: string };

/** A search box over the user's conversations (titles and message text), with its results. */
export function ConversationSearch({ api, currentId, onSelect, children }: ConversationSearchProps) {
  const [query, setQuery] = useState("");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const wanted = query.trim();

  useEffect(() => {
    if (wanted === "") return undefined;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      api.searchConversations(wanted, 20, controller.signal).then(
        (results) => {
          setOutcome({ query: wanted, status: "done", items: results.items, terms: results.terms });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : "The search failed.";
          setOutcome({ query: wanted, status: "error", message });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [api, wanted]);

  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    // Esc first clears the search; only an empty box lets it through (to close the tray).
    if (event.key === "Escape" && query !== "") {
      event.preventDefault();
      event.stopPropagation();
      setQuery("");
    }
  };

  const current = outcome !== null && outcome.query === wanted ? outcome : null;
  return (
    <>
      <div className="pc-conversation-search" role="search">
        <input
          type="search"
          className="pc-conversation-search-input"
          aria-label="Search conversations"
          placeholder="Search conversations"
          value={query}
          maxLength={MAX_SEARCH_CHARS}
          onChange={(event) => {
            setQuery(event.target.value);
          }}
          onKeyDown={onKey}
        />
      </div>
      {wanted === "" ? (
        children
      ) : (
        <div className="pc-search-results" aria-live="polite" data-status={current?.status ?? "searching"}>
          {current === null && <p className="pc-muted">Searching…</p>}
          {current?.status === "error" && (
            <p className="pc-error" role="alert">
              {current.message}
            </p>
          )}
          {current?.status === "done" && current.items.length === 0 && (
            <p className="pc-muted">No conversation matches “{wanted}”.</p>
          )}
          {current?.status === "done" && current.items.length > 0 && (
            <ul className="pc-conversation-list" aria-label="Search results">
              {current.items.map((hit) => (
                <li
                  key={hit.conversation.id}
                  className="pc-conversation"
                  data-active={hit.conversation.id === currentId ? "" : undefined}
                >
                  <button
                    type="button"
                    className="pc-conversation-open"
                    onClick={() => {
                      onSelect(hit.conversation.id);
                    }}
                  >
                    <span className="pc-conversation-title">{hit.conversation.title}</span>
                    <SearchSnippet text={hit.snippet} terms={current.terms} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );
}
