import type { SuggestedValue } from "../types";

export interface SuggestedValuesProps {
  values: SuggestedValue[];
  disabled: boolean;
  onPick: (value: string) => void;
}

/** Chips: a click sends the chip's value as the user's next message. */
export function SuggestedValues({ values, disabled, onPick }: SuggestedValuesProps) {
  if (values.length === 0) return null;
  return (
    <div className="pc-chips" role="group" aria-label="Suggested replies">
      {values.map((v, i) => (
        <button
          key={`${String(i)}-${v.value}`}
          type="button"
          className="pc-chip"
          disabled={disabled}
          onClick={() => {
            onPick(v.value);
          }}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}
