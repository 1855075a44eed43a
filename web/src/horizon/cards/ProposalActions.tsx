import type { PayloadCallbacks } from "@pagechat/react";
import { CardActions } from "./CardActions";

export interface ProposalActionsProps {
  callbacks: PayloadCallbacks;
  /** What accepting does, said once. */
  effect: string;
}

/** Accept and Reject under a proposal; on a page that cannot apply it, only Close and where to go. */
export function ProposalActions({ callbacks, effect }: ProposalActionsProps) {
  if (!callbacks.canAccept) {
    return (
      <>
        <p className="hz-muted">Open the stream to accept or reject this proposal.</p>
        <CardActions rejectLabel="Close" onReject={callbacks.onReject} />
      </>
    );
  }
  return (
    <>
      <p className="hz-muted">{effect}</p>
      <CardActions
        onAccept={() => {
          callbacks.onAccept();
        }}
        onReject={callbacks.onReject}
      />
    </>
  );
}
