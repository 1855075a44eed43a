import { useState } from "react";
import type { SuggestedAction } from "../types";

export interface SuggestedActionsProps {
  actions: SuggestedAction[];
  disabled: boolean;
  /** Whether a client action can run on this page. */
  isAvailable: (action: SuggestedAction) => boolean;
  onRun: (action: SuggestedAction) => Promise<void>;
}

/** Action buttons: client actions run in the page, server actions on the server. */
export function SuggestedActions({ actions, disabled, isAvailable, onRun }: SuggestedActionsProps) {
  const [running, setRunning] = useState<number | null>(null);
  if (actions.length === 0) return null;
  return (
    <div className="pc-actions" role="group" aria-label="Suggested actions">
      {actions.map((action, i) => {
        const available = isAvailable(action);
        return (
          <button
            key={`${String(i)}-${action.action}`}
            type="button"
            className="pc-action"
            data-style={action.style ?? "secondary"}
            data-handler={action.handler}
            disabled={disabled || !available || running !== null}
            title={available ? undefined : "Not available on this page"}
            aria-busy={running === i ? true : undefined}
            onClick={() => {
              setRunning(i);
              void onRun(action).finally(() => {
                setRunning(null);
              });
            }}
          >
            {action.label}
          </button>
        );
      })}
    </div>
  );
}
