import { Button } from "@pagechat/react";
import { X } from "lucide-react";

export interface NoticeProps {
  tone: "info" | "success" | "error";
  text: string;
  onDismiss?: () => void;
  /** A button after the text, e.g. Undo. */
  action?: { label: string; run: () => void };
  /** False for a copy of a notice shown elsewhere too (the tray's): only one is announced. */
  live?: boolean;
}

/** A one-line message about what just happened on the page. */
export function Notice({ tone, text, onDismiss, action, live = true }: NoticeProps) {
  const role = !live ? undefined : tone === "error" ? "alert" : "status";
  return (
    <div className="hz-notice" data-tone={tone} role={role}>
      <span>{text}</span>
      {action && (
        <Button variant="secondary" size="sm" onClick={action.run}>
          {action.label}
        </Button>
      )}
      {onDismiss && (
        <button type="button" className="hz-icon-button" aria-label="Dismiss message" title="Dismiss message" onClick={onDismiss}>
          <X size={16} aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
