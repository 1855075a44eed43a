import { Button } from "@pagechat/react";

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
        <Button variant="primary" disabled={acceptDisabled} onClick={onAccept}>
          {acceptLabel}
        </Button>
      )}
      <Button variant="secondary" onClick={onReject}>
        {rejectLabel}
      </Button>
    </div>
  );
}
