import { Button } from "@pagechat/react";
import type { PayloadCallbacks } from "@pagechat/react";

export interface ProjectProposal {
  name?: string;
  priority?: string;
  tags?: string[];
  reason?: string;
}

export function asProposal(data: unknown): ProjectProposal {
  if (typeof data !== "object" || data === null) return {};
  const d = data as Record<string, unknown>;
  return {
    name: typeof d.name === "string" ? d.name : undefined,
    priority: typeof d.priority === "string" ? d.priority : undefined,
    tags: Array.isArray(d.tags) ? d.tags.filter((t): t is string => typeof t === "string") : undefined,
    reason: typeof d.reason === "string" ? d.reason : undefined,
  };
}

/** The demo page's payload card: a proposed change to the project, to accept or reject. */
export function ProposalCard({ data, callbacks }: { data: unknown; callbacks: PayloadCallbacks }) {
  const proposal = asProposal(data);
  return (
    <div className="app-proposal">
      {proposal.reason && <p>{proposal.reason}</p>}
      <dl>
        {proposal.name !== undefined && (
          <>
            <dt>Name</dt>
            <dd>{proposal.name}</dd>
          </>
        )}
        {proposal.priority !== undefined && (
          <>
            <dt>Priority</dt>
            <dd>{proposal.priority}</dd>
          </>
        )}
        {proposal.tags !== undefined && (
          <>
            <dt>Tags</dt>
            <dd>{proposal.tags.join(", ")}</dd>
          </>
        )}
      </dl>
      <div className="app-row">
        <Button variant="primary" onClick={() => { callbacks.onAccept(); }}>
          Accept
        </Button>
        <Button variant="secondary" onClick={callbacks.onReject}>
          Reject
        </Button>
      </div>
    </div>
  );
}
