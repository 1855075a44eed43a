import { useState, type SyntheticEvent } from "react";
import type { ApprovalPublic } from "../types";
import { Button } from "./Button";

export interface ApprovalCardProps {
  approval: ApprovalPublic;
  /** False while another turn runs or a decision is on its way. */
  enabled: boolean;
  onDecide: (approvalId: string, approved: boolean, note?: string) => Promise<void>;
}

type Phase = "open" | "denying" | "sending";

/** A tool call the answer waits for: what it would do, with Approve and Deny (and why); for a
 * call of the app's own tool, only that the answer waits for the app. */
export function ApprovalCard({ approval, enabled, onDecide }: ApprovalCardProps) {
  const [phase, setPhase] = useState<Phase>("open");
  const [note, setNote] = useState("");
  const disabled = !enabled || phase === "sending";

  const decide = (approved: boolean) => {
    setPhase("sending");
    void onDecide(approval.id, approved, approved ? undefined : note).finally(() => {
      setPhase("open");
    });
  };
  const submitDenial = (event: SyntheticEvent) => {
    event.preventDefault();
    decide(false);
  };
  const args = JSON.stringify(approval.input, null, 2);
  if (approval.kind === "frontend_tool") {
    // The app's own tool (AG-UI, useChat): its client runs it; nothing for the user to decide here.
    return (
      <section className="pc-approval" data-approval="waiting" aria-label={`Waiting for ${approval.tool}`}>
        <header className="pc-approval-title">
          The answer waits for the app to run <code>{approval.tool}</code>
        </header>
        <p className="pc-approval-reason">It goes on when the app that asked sends the result.</p>
      </section>
    );
  }

  return (
    <section className="pc-approval" data-approval={approval.status} aria-label={`Approve ${approval.tool}?`}>
      <header className="pc-approval-title">
        The assistant wants to run <code>{approval.tool}</code>
      </header>
      {approval.reason !== "" && <p className="pc-approval-reason">{approval.reason}</p>}
      {args !== "{}" && (
        <details className="pc-approval-input">
          <summary>Arguments</summary>
          <pre>{args}</pre>
        </details>
      )}
      {phase === "denying" ? (
        <form className="pc-approval-actions" onSubmit={submitDenial}>
          <input
            type="text"
            aria-label="Reason (optional)"
            placeholder="Reason (optional)"
            value={note}
            maxLength={2000}
            onChange={(e) => {
              setNote(e.target.value);
            }}
            autoFocus
          />
          <Button type="submit" variant="danger" disabled={disabled}>
            Deny
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              setPhase("open");
            }}
            disabled={disabled}
          >
            Back
          </Button>
        </form>
      ) : (
        <div className="pc-approval-actions">
          <Button
            variant="primary"
            onClick={() => {
              decide(true);
            }}
            disabled={disabled}
          >
            Approve
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setPhase("denying");
            }}
            disabled={disabled}
          >
            Deny…
          </Button>
        </div>
      )}
    </section>
  );
}
