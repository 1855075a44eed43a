// What a proposal changes, field by field: pure functions the proposal cards render.

export type ChangeKind = "added" | "removed" | "changed" | "kept";

export interface ItemChange<T> {
  kind: ChangeKind;
  /** The item as proposed (absent when removed). */
  after?: T;
  /** The item as it is now (absent when added). */
  before?: T;
}

const _norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/** A text field: unchanged when only case or spacing differ. */
export function textChanged(before: string, after: string): boolean {
  return _norm(before) !== _norm(after);
}

/**
 * A list of named things (topics, categories, entities, queries) now and as proposed, matched
 * by `key`: each kept, changed (same key, other details), added or removed, in the proposed
 * order with the removed ones after.
 */
export function listChanges<T>(before: readonly T[], after: readonly T[], key: (item: T) => string, same: (a: T, b: T) => boolean): ItemChange<T>[] {
  const now = new Map<string, T>();
  for (const item of before) now.set(_norm(key(item)), item);
  const proposed = new Set<string>();
  const changes: ItemChange<T>[] = [];
  for (const item of after) {
    const k = _norm(key(item));
    proposed.add(k);
    const old = now.get(k);
    if (old === undefined) changes.push({ kind: "added", after: item });
    else changes.push({ kind: same(old, item) ? "kept" : "changed", before: old, after: item });
  }
  for (const item of before) if (!proposed.has(_norm(key(item)))) changes.push({ kind: "removed", before: item });
  return changes;
}

/** Counts of a list's changes, for its heading ("2 added, 1 removed"). */
export function summarize(changes: readonly ItemChange<unknown>[]): string {
  const count = (kind: ChangeKind) => changes.filter((c) => c.kind === kind).length;
  const parts = (["added", "changed", "removed"] as const).filter((k) => count(k) > 0).map((k) => `${String(count(k))} ${k}`);
  return parts.length === 0 ? "no change" : parts.join(", ");
}
