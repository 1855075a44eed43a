export interface ErrorBubbleProps {
  message: string;
  onRetry?: () => void;
}

export function ErrorBubble({ message, onRetry }: ErrorBubbleProps) {
  return (
    <div className="pc-error" role="alert">
      <span className="pc-error-text">{message}</span>
      {onRetry && (
        <button type="button" className="pc-button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
