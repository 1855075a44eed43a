import type { RetrievalQuery } from "../generated/api";
import { ListEditor } from "./ListEditor";

/** The stream's PubMed queries, in PubMed's boolean syntax. */
export function QueriesEditor({ items, onChange }: { items: RetrievalQuery[]; onChange: (items: RetrievalQuery[]) => void }) {
  return (
    <ListEditor
      title="PubMed queries"
      noun="query"
      items={items}
      onChange={onChange}
      hint='Boolean syntax with field tags, e.g. ("CRISPR"[Title/Abstract]) AND "base editing"[Title/Abstract].'
      blank={(): RetrievalQuery => ({ source: "pubmed", query: "", rationale: "" })}
      renderItem={(item, i, set) => (
        <div className="hz-query-inputs">
          <textarea
            aria-label={`Query ${String(i + 1)}`}
            className="hz-query-input"
            rows={3}
            value={item.query}
            onChange={(e) => {
              set({ ...item, query: e.target.value });
            }}
          />
          <input
            aria-label={`Query ${String(i + 1)} rationale`}
            placeholder="Why this query"
            value={item.rationale}
            onChange={(e) => {
              set({ ...item, rationale: e.target.value });
            }}
          />
        </div>
      )}
    />
  );
}
