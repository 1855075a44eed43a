// The assistant's changes to one kind of Horizon's entities, in this tab or another: a page
// that shows one refetches it, or moves on when it was deleted.
import { onEntityChanges, type EntityChange } from "@pagechat/react";
import { useEffect, useRef } from "react";

/** Calls `handler` (always the latest one given) with each batch of changes to `entity`s. */
export function useEntityChanges(entity: string, handler: (changes: EntityChange[]) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(
    () =>
      onEntityChanges((changes) => {
        const mine = changes.filter((c) => c.entity === entity);
        if (mine.length > 0) latest.current(mine);
      }),
    [entity],
  );
}

/** The notice a page moved on with (history state `notice`), read once as it opens. */
export function noticeOnArrival(): string | null {
  const notice = (window.history.state as { notice?: unknown } | null)?.notice;
  return typeof notice === "string" ? notice : null;
}
