export interface NoticeProps {
  tone: "info" | "success" | "error";
  text: string;
  onDismiss?: () => void;
}

/** A one-line message about what just happened on the page. */
export function Notice({ tone, text, onDismiss }: NoticeProps) {
  return (
    <div className="hz-notice" data-tone={tone} role={tone === "error" ? "alert" : "status"}>
      <span>{text}</span>
      {onDismiss && (
        <button type="button" className="hz-icon-button" aria-label="Dismiss message" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}
