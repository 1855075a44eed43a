// What the assistant's tools changed in the app (`tool_complete.changes`), told to the pages:
// in this tab through a window event, in the user's other tabs through a BroadcastChannel.
// A page that shows a changed entity refetches it, or moves on when it was deleted.
import type { EntityChange } from "./types";

const EVENT = "pagechat:changes";
const CHANNEL = "pagechat:changes";

/** This tab: its own messages come back to its listeners' channels, and are ignored there. */
const TAB = Math.random().toString(36).slice(2);

let channel: BroadcastChannel | null | undefined;

function sharedChannel(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  return channel;
}

function isChange(value: unknown): value is EntityChange {
  if (typeof value !== "object" || value === null) return false;
  const { entity, id, change } = value as Record<string, unknown>;
  return typeof entity === "string" && typeof id === "string" && (change === "created" || change === "updated" || change === "deleted");
}

function dispatch(changes: EntityChange[]): void {
  window.dispatchEvent(new CustomEvent<EntityChange[]>(EVENT, { detail: changes }));
}

/** Tells this tab's pages and the user's other tabs what changed. */
export function announceChanges(changes: readonly EntityChange[]): void {
  if (changes.length === 0 || typeof window === "undefined") return;
  dispatch([...changes]);
  sharedChannel()?.postMessage({ from: TAB, changes: [...changes] });
}

/** Calls `listener` with each batch of changes, made in this tab or another; returns the
 * unsubscribe. A page passes the changes it cares about to a refetch or a navigation. */
export function onEntityChanges(listener: (changes: EntityChange[]) => void): () => void {
  const local = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (Array.isArray(detail)) listener(detail.filter(isChange));
  };
  // A channel of its own: a BroadcastChannel does not hear its own messages, and the
  // shared one is this tab's sender.
  const remote = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  const fromOtherTab = (event: MessageEvent<unknown>) => {
    const { from, changes } = (event.data ?? {}) as { from?: unknown; changes?: unknown };
    if (from !== TAB && Array.isArray(changes)) listener(changes.filter(isChange));
  };
  window.addEventListener(EVENT, local);
  remote?.addEventListener("message", fromOtherTab);
  return () => {
    window.removeEventListener(EVENT, local);
    remote?.close();
  };
}
