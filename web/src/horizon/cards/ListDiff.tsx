import type { ReactNode } from "react";
import { listChanges, summarize, type ChangeKind } from "../diff";

export interface ListDiffProps<T> {
  label: string;
  /** The list now; null when this page does not show it (then only the proposal is listed). */
  before: readonly T[] | null;
  after: readonly T[];
  keyOf: (item: T) => string;
  same: (a: T, b: T) => boolean;
  render: (item: T) => ReactNode;
}

const _MARK: Record<ChangeKind, string> = { added: "+", removed: "−", changed: "~", kept: "" };
const _SAID: Record<ChangeKind, string> = { added: "added", removed: "removed", changed: "changed", kept: "unchanged" };

/** A proposed list against the current one: each item marked added, removed, changed or kept. */
export function ListDiff<T>({ label, before, after, keyOf, same, render }: ListDiffProps<T>) {
  const changes = listChanges(before ?? [], after, keyOf, same);
  const heading = before === null ? `${label} (${String(after.length)} proposed)` : `${label}: ${summarize(changes)}`;
  return (
    <section className="hz-diff" aria-label={label}>
      <h4>{heading}</h4>
      {changes.length === 0 ? (
        <p className="hz-muted">None.</p>
      ) : (
        <ul className="hz-diff-list">
          {changes.map((change, i) => {
            const kind: ChangeKind = before === null ? "kept" : change.kind;
            const item = change.after ?? change.before;
            if (item === undefined) return null;
            return (
              <li key={`${keyOf(item)}-${String(i)}`} data-change={kind}>
                <span className="hz-diff-mark" aria-hidden="true">
                  {_MARK[kind]}
                </span>
                {before !== null && <span className="hz-visually-hidden">{_SAID[kind]}: </span>}
                {kind === "removed" ? <del>{render(item)}</del> : render(item)}
                {kind === "changed" && change.before !== undefined && (
                  <div className="hz-diff-was">
                    was: <del>{render(change.before)}</del>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
