import { ChevronDown, ChevronUp, CircleX, Wrench } from "lucide-react";
import { useId, useState } from "react";
import { CHART_PAYLOAD } from "../chartPayload";
import type { ApprovalPublic, ToolHistoryEntry } from "../types";
import { toolTone } from "../status";
import { ChartView, isChartData } from "./ChartView";

function formatInput(input: Record<string, unknown>): string {
  return JSON.stringify(input, null, 2);
}

export interface ToolCallCardProps {
  entry: ToolHistoryEntry;
  /** The answer is still streaming: the output is known once it completes. */
  pending?: boolean;
}

/** A tool call shown where its `[[tool:N]]` marker stands; collapsed to its name by default. */
const APPROVAL_BADGE: Record<ApprovalPublic["status"], string> = {
  pending: "waiting for approval",
  approved: "approved",
  denied: "denied",
  expired: "not approved in time",
};

export function ToolCallCard({ entry, pending = false }: ToolCallCardProps) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <div className="pc-tool-card" data-state={open ? "open" : "closed"} data-error={entry.is_error ? "" : undefined}>
      <button
        type="button"
        className="pc-tool-card-header"
        aria-expanded={open}
        aria-controls={open ? bodyId : undefined}
        onClick={() => {
          setOpen((v) => !v);
        }}
      >
        <span className="pc-tool-card-icon" aria-hidden="true">
          {entry.is_error ? <CircleX size={14} /> : <Wrench size={14} />}
        </span>
        <span className="pc-tool-card-name">{entry.tool_name}</span>
        {entry.approval ? (
          <span
            className="pc-tool-card-badge"
            data-approval={entry.approval.status}
            data-tone={toolTone(entry.is_error, entry.approval.status)}
          >
            {APPROVAL_BADGE[entry.approval.status]}
            {entry.is_error && entry.approval.status === "approved" ? ", failed" : ""}
          </span>
        ) : (
          entry.is_error && (
            <span className="pc-tool-card-badge" data-tone="danger">
              failed
            </span>
          )
        )}
        <span className="pc-tool-card-chevron" aria-hidden="true">
          {open ? <ChevronUp size={14} /> : <ChevronDown size={14} />}
        </span>
      </button>
      {/* A chart is for looking at: shown in place, not folded away with the raw output. */}
      {entry.payload?.type === CHART_PAYLOAD && isChartData(entry.payload.data) && <ChartView data={entry.payload.data} />}
      {open && (
        <div className="pc-tool-card-body" id={bodyId}>
          <div className="pc-tool-card-section">
            <div className="pc-tool-card-label">Input</div>
            <pre>{formatInput(entry.input)}</pre>
          </div>
          <div className="pc-tool-card-section">
            <div className="pc-tool-card-label">{entry.is_error ? "Error" : "Output"}</div>
            {pending && entry.output === "" ? (
              <p className="pc-tool-card-pending">Shown when the answer is complete.</p>
            ) : (
              <pre>{entry.output}</pre>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
