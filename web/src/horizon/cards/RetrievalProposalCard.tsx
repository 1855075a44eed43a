import type { PayloadCallbacks } from "../../chat";
import type { RetrievalQuery, RetrievalProposal } from "../generated/api";
import { CardActions } from "./CardActions";
import { Confidence } from "./Confidence";
import { Prose } from "./Prose";

export interface RetrievalProposalCardProps {
  data: RetrievalProposal;
  current: RetrievalQuery[];
  callbacks: PayloadCallbacks;
}

/** Proposed search queries; accepting replaces the stream's. */
export function RetrievalProposalCard({ data, current, callbacks }: RetrievalProposalCardProps) {
  return (
    <div className="hz-card" data-card="retrieval-proposal">
      <Confidence level={data.confidence} />
      <Prose text={data.reasoning} />
      <h4>Proposed queries ({data.queries.length})</h4>
      {data.queries.map((q, i) => (
        <figure key={i} className="hz-query-figure">
          <pre className="hz-query">{q.query}</pre>
          <figcaption>
            PubMed
            {q.rationale ? ` — ${q.rationale}` : ""}
          </figcaption>
        </figure>
      ))}
      <p className="hz-muted">
        {current.length > 0
          ? `Accepting replaces the ${String(current.length)} current quer${current.length === 1 ? "y" : "ies"} and saves them.`
          : "Accepting sets these queries and saves them."}
      </p>
      <CardActions onAccept={() => { callbacks.onAccept(); }} onReject={callbacks.onReject} />
    </div>
  );
}
