export interface CardActionsProps {
  acceptLabel?: string;
  rejectLabel?: string;
  /** No accept button when absent (a card that only informs). */
  onAccept?: () => void;
  onReject: () => void;
  acceptDisabled?: boolean;
}

/** The buttons at the foot of a payload card. */
export function CardActions({ acceptLabel = "Accept", rejectLabel = "Reject", onAccept, onReject, acceptDisabled }: CardActionsProps) {
  return (
    <div className="hz-card-actions">
      {onAccept && (
        <button type="button" data-style="primary" disabled={acceptDisabled} onClick={onAccept}>
          {acceptLabel}
        </button>
      )}
      <button type="button" onClick={onReject}>
        {rejectLabel}
      </button>
    </div>
  );
}
