import { useSendMessage } from "./SendContext";

export interface HintsProps {
  hints: readonly string[];
  label?: string;
}

/** Things to try in an empty conversation: each one, clicked, is sent as the first message. */
export function Hints({ hints, label = "Try" }: HintsProps) {
  const send = useSendMessage();
  if (hints.length === 0) return null;
  return (
    <div className="pc-hints" role="group" aria-label={label}>
      <span className="pc-hints-label">{label}:</span>
      {hints.map((hint) => (
        <button
          key={hint}
          type="button"
          className="pc-chip"
          disabled={send === null}
          onClick={() => {
            send?.(hint);
          }}
        >
          {hint}
        </button>
      ))}
    </div>
  );
}
