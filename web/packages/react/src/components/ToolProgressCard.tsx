import { X } from "lucide-react";
import type { ActiveToolProgress } from "../types";
import { IconButton } from "./IconButton";

export interface ToolProgressCardProps {
  progress: ActiveToolProgress;
  onStop?: () => void;
}

/** The tool running now: an amber card with a spinner, its stage message and, if known, how far it is. */
export function ToolProgressCard({ progress, onStop }: ToolProgressCardProps) {
  const percent = progress.progress === null ? null : Math.round(progress.progress * 100);
  return (
    <div className="pc-tool-progress" role="status" aria-label={`Running ${progress.toolName}`}>
      <div className="pc-tool-progress-header">
        <span className="pc-spinner" aria-hidden="true" />
        <span className="pc-tool-progress-name">{progress.toolName}</span>
        {onStop && (
          <IconButton icon={X} label="Stop" onClick={onStop} />
        )}
      </div>
      <div className="pc-tool-progress-message">{progress.message || "Working…"}</div>
      {percent !== null && (
        <div
          className="pc-progress"
          role="progressbar"
          aria-label={`${progress.toolName} progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="pc-progress-bar" style={{ width: `${String(percent)}%` }} />
        </div>
      )}
    </div>
  );
}
