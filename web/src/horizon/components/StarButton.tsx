export interface StarButtonProps {
  starred: boolean;
  /** What is starred, for screen readers ("PMID 123"). */
  what: string;
  busy?: boolean;
  onToggle: () => void;
}

/** A toggle: ☆ / ★. */
export function StarButton({ starred, what, busy, onToggle }: StarButtonProps) {
  return (
    <button
      type="button"
      className="hz-star"
      aria-pressed={starred}
      aria-label={`Star ${what}`}
      data-starred={starred || undefined}
      disabled={busy}
      onClick={onToggle}
    >
      {starred ? "★" : "☆"}
    </button>
  );
}
