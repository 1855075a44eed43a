import type { FieldsProps } from "./SemanticFields";
import { QueriesEditor } from "./QueriesEditor";

/** Layer 2, how articles are found: the PubMed queries. */
export function RetrievalFields({ draft, onChange }: FieldsProps) {
  return (
    <div className="hz-fields" data-layer="retrieval">
      <QueriesEditor
        items={draft.retrieval_config.queries}
        onChange={(queries) => {
          onChange({ ...draft, retrieval_config: { queries } });
        }}
      />
    </div>
  );
}
