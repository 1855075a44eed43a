export interface BranchPickerProps {
  position: number;
  count: number;
  disabled: boolean;
  onSelect: (position: number) => void;
}

/** `‹ 2 / 3 ›`: which version of a message is shown, and a way to the others. */
export function BranchPicker({ position, count, disabled, onSelect }: BranchPickerProps) {
  if (count < 2) return null;
  return (
    <span className="pc-branch-picker" data-branch-picker role="group" aria-label="Versions">
      <button
        type="button"
        aria-label="Previous version"
        title="Previous version"
        disabled={disabled || position <= 1}
        onClick={() => {
          onSelect(position - 1);
        }}
      >
        ‹
      </button>
      <span aria-live="polite" data-branch-position>
        {position} / {count}
      </span>
      <button
        type="button"
        aria-label="Next version"
        title="Next version"
        disabled={disabled || position >= count}
        onClick={() => {
          onSelect(position + 1);
        }}
      >
        ›
      </button>
    </span>
  );
}
