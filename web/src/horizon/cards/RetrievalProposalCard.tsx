import type { PayloadCallbacks } from "@pagechat/react";
import type { RetrievalQuery } from "../generated/api";
import type { RetrievalProposal } from "../generated/payloads.gen";
import { Confidence } from "./Confidence";
import { ListDiff } from "./ListDiff";
import { ProposalActions } from "./ProposalActions";
import { Prose } from "./Prose";

export interface RetrievalProposalCardProps {
  data: RetrievalProposal;
  /** The stream's queries now (null: this page does not show them). */
  current: RetrievalQuery[] | null;
  callbacks: PayloadCallbacks;
}

type Query = { query: string; rationale?: string };

/** Proposed search queries against the stream's; accepting replaces them. */
export function RetrievalProposalCard({ data, current, callbacks }: RetrievalProposalCardProps) {
  return (
    <div className="hz-card" data-card="retrieval-proposal">
      <Confidence level={data.confidence} />
      <Prose text={data.reasoning} />
      <ListDiff<Query>
        label="PubMed queries"
        before={current}
        after={data.queries}
        keyOf={(q) => q.query}
        same={() => true}
        render={(q) => (
          <figure className="hz-query-figure">
            <pre className="hz-query">{q.query}</pre>
            {q.rationale ? <figcaption>{q.rationale}</figcaption> : null}
          </figure>
        )}
      />
      <ProposalActions callbacks={callbacks} effect="Accepting replaces the stream's queries with these and saves them; you can undo it." />
    </div>
  );
}
