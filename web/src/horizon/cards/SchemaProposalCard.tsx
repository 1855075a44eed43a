import type { PayloadCallbacks } from "@pagechat/react";
import type { StreamDraft } from "../draft";
import type { SchemaProposal } from "../generated/payloads.gen";
import { ProposalActions } from "./ProposalActions";
import { Confidence } from "./Confidence";
import { ListDiff } from "./ListDiff";
import { Prose } from "./Prose";
import { TextDiff } from "./TextDiff";

export interface SchemaProposalCardProps {
  data: SchemaProposal;
  /** The form as it is now, to show each change against (null: this page has no form). */
  current: StreamDraft | null;
  callbacks: PayloadCallbacks;
}

type Named = { name: string; description?: string };
const named = (t: Named) => (
  <>
    <strong>{t.name}</strong>
    {t.description ? <span className="hz-muted"> — {t.description}</span> : null}
  </>
);
const sameNamed = (a: Named, b: Named) => (a.description ?? "") === (b.description ?? "");

/** Proposed changes to the semantic space, field by field against the form's current values. */
export function SchemaProposalCard({ data, current, callbacks }: SchemaProposalCardProps) {
  const c = data.proposed_changes;
  const s = current?.semantic_space ?? null;
  return (
    <div className="hz-card" data-card="schema-proposal">
      <Confidence level={data.confidence} />
      <Prose text={data.reasoning} />
      {c.stream_name !== undefined && <TextDiff label="Name" before={current?.name ?? null} after={c.stream_name} />}
      {c.purpose !== undefined && <TextDiff label="Purpose" before={current?.purpose ?? null} after={c.purpose} />}
      {c.topics !== undefined && (
        <ListDiff label="Topics" before={s?.topics ?? null} after={c.topics} keyOf={(t) => t.name} same={sameNamed} render={named} />
      )}
      {c.entities !== undefined && (
        <ListDiff
          label="Entities"
          before={s?.entities ?? null}
          after={c.entities}
          keyOf={(e) => e.name}
          same={(a, b) => a.type === b.type}
          render={(e) => (
            <>
              {e.name} <span className="hz-muted">({e.type})</span>
            </>
          )}
        />
      )}
      {c.inclusion_notes !== undefined && <TextDiff label="Inclusion notes" before={s?.inclusion_notes ?? null} after={c.inclusion_notes} />}
      {c.exclusion_notes !== undefined && <TextDiff label="Exclusion notes" before={s?.exclusion_notes ?? null} after={c.exclusion_notes} />}
      <ProposalActions
        callbacks={callbacks}
        effect={
          current === null
            ? "Accepting saves these fields to the stream (topics: the whole list shown)."
            : "Accepting changes these fields in the form and saves them to the stream; you can undo it."
        }
      />
    </div>
  );
}
