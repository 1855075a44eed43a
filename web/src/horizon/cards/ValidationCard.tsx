import { CircleCheck, CircleX } from "lucide-react";
import type { PayloadCallbacks } from "@pagechat/react";
import type { ValidationFeedback, ValidationResults } from "../generated/payloads.gen";
import { CardActions } from "./CardActions";
import { IssueList } from "./IssueList";

export interface ValidationCardProps {
  data: ValidationResults | ValidationFeedback;
  callbacks: PayloadCallbacks;
  /** Opens the place in the form that holds a field. */
  onField?: (field: string) => void;
}

/** A check of the stream: errors to fix, warnings, suggestions (and, for a draft, a verdict). */
export function ValidationCard({ data, callbacks, onField }: ValidationCardProps) {
  const ready = "ready" in data ? data.ready : undefined;
  const clean = data.errors.length + data.warnings.length + data.suggestions.length === 0;
  return (
    <div className="hz-card" data-card="validation">
      {ready !== undefined && (
        <p className="hz-verdict" data-ready={ready}>
          {ready ? <CircleCheck size={16} aria-hidden="true" /> : <CircleX size={16} aria-hidden="true" />}
          {ready ? "Ready to create" : "Not ready yet"}
        </p>
      )}
      {data.summary ? <p>{data.summary}</p> : null}
      {clean && <p>No problems found.</p>}
      <IssueList level="error" title="Errors" issues={data.errors} onField={onField} />
      <IssueList level="warning" title="Warnings" issues={data.warnings} onField={onField} />
      <IssueList level="suggestion" title="Suggestions" issues={data.suggestions} onField={onField} />
      <CardActions rejectLabel="Done" onReject={callbacks.onReject} />
    </div>
  );
}
