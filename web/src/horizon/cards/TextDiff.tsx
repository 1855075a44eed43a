import { textChanged } from "../diff";

export interface TextDiffProps {
  label: string;
  /** The value now; null when this page does not show it. */
  before: string | null;
  after: string;
}

const _shown = (value: string) => (value.trim() === "" ? "(empty)" : value);

/** One text field of a proposal: the value now struck through, the proposed one after it. */
export function TextDiff({ label, before, after }: TextDiffProps) {
  const changed = before === null || textChanged(before, after);
  return (
    <section className="hz-diff" aria-label={label} data-change={before === null ? "proposed" : changed ? "changed" : "kept"}>
      <h4>
        {label}
        {!changed && <span className="hz-diff-note"> — unchanged</span>}
      </h4>
      {changed && before !== null && (
        <p className="hz-diff-before">
          <span className="hz-diff-tag">Now</span>
          <del>{_shown(before)}</del>
        </p>
      )}
      <p className="hz-diff-after">
        <span className="hz-diff-tag">{changed ? "Proposed" : "Stays"}</span>
        {changed ? <ins>{_shown(after)}</ins> : _shown(after)}
      </p>
    </section>
  );
}
