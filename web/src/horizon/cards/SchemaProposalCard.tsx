import type { PayloadCallbacks } from "../../chat";
import type { StreamDraft } from "../draft";
import type { SchemaProposal } from "../generated/api";
import { CardActions } from "./CardActions";
import { Change } from "./Change";
import { Confidence } from "./Confidence";
import { NamedList } from "./NamedList";
import { Prose } from "./Prose";

export interface SchemaProposalCardProps {
  data: SchemaProposal;
  /** The form as it is now, to show each change against. */
  current: StreamDraft;
  callbacks: PayloadCallbacks;
}

const text = (value: string) => (value ? <p>{value}</p> : <p className="hz-muted">(empty)</p>);

function entities(items: { name: string; type: string }[]) {
  if (items.length === 0) return <p className="hz-muted">None.</p>;
  return (
    <ul className="hz-chips">
      {items.map((e) => (
        <li key={`${e.type}:${e.name}`} data-entity-type={e.type}>
          {e.name} <span className="hz-muted">({e.type})</span>
        </li>
      ))}
    </ul>
  );
}

/** Proposed changes to the semantic space, each against the form's current value. */
export function SchemaProposalCard({ data, current, callbacks }: SchemaProposalCardProps) {
  const c = data.proposed_changes;
  const s = current.semantic_space;
  return (
    <div className="hz-card" data-card="schema-proposal">
      <Confidence level={data.confidence} />
      <Prose text={data.reasoning} />
      {c.stream_name !== undefined && <Change label="Name" before={text(current.name)} after={text(c.stream_name)} />}
      {c.purpose !== undefined && <Change label="Purpose" before={text(current.purpose)} after={text(c.purpose)} />}
      {c.topics !== undefined && (
        <Change
          label={`Topics (${String(s.topics.length)} → ${String(c.topics.length)})`}
          before={<NamedList items={s.topics} label="Current topics" />}
          after={<NamedList items={c.topics} label="Proposed topics" />}
        />
      )}
      {c.entities !== undefined && (
        <Change
          label={`Entities (${String(s.entities.length)} → ${String(c.entities.length)})`}
          before={entities(s.entities)}
          after={entities(c.entities)}
        />
      )}
      {c.inclusion_notes !== undefined && (
        <Change label="Inclusion notes" before={text(s.inclusion_notes)} after={text(c.inclusion_notes)} />
      )}
      {c.exclusion_notes !== undefined && (
        <Change label="Exclusion notes" before={text(s.exclusion_notes)} after={text(c.exclusion_notes)} />
      )}
      <p className="hz-muted">Accepting changes the form and saves these fields to the stream.</p>
      <CardActions onAccept={() => { callbacks.onAccept(); }} onReject={callbacks.onReject} />
    </div>
  );
}
