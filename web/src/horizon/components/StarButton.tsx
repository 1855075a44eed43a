import { Star } from "lucide-react";

export interface StarButtonProps {
  starred: boolean;
  /** What is starred, for screen readers ("PMID 123"). */
  what: string;
  busy?: boolean;
  onToggle: () => void;
}

/** A toggle: an outlined star, filled when starred. */
export function StarButton({ starred, what, busy, onToggle }: StarButtonProps) {
  return (
    <button
      type="button"
      className="hz-star"
      aria-pressed={starred}
      aria-label={`Star ${what}`}
      title={starred ? `Starred: ${what}` : `Star ${what}`}
      data-starred={starred || undefined}
      disabled={busy}
      onClick={onToggle}
    >
      <Star size={18} aria-hidden="true" fill={starred ? "currentColor" : "none"} />
    </button>
  );
}
