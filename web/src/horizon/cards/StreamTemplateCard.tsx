import { Button } from "@pagechat/react";
import { useState } from "react";
import type { PayloadCallbacks } from "@pagechat/react";
import type { StreamTemplate } from "../generated/payloads.gen";
import { NamedList } from "./NamedList";

export interface StreamTemplateCardProps {
  data: StreamTemplate;
  callbacks: PayloadCallbacks;
  /** Creates the stream straight from the template (a server action); resolves to an error text or null. */
  onCreate?: () => Promise<string | null>;
}

/** A whole stream drafted for a research area: accept to fill the form with it. */
export function StreamTemplateCard({ data, callbacks, onCreate }: StreamTemplateCardProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const create = () => {
    if (!onCreate) return;
    setBusy(true);
    setError(null);
    void onCreate().then((problem) => {
      setBusy(false);
      setError(problem);
    });
  };
  return (
    <div className="hz-card" data-card="stream-template">
      <h3 className="hz-card-title">{data.name}</h3>
      <p>{data.purpose}</p>
      <h4>Topics ({data.topics.length})</h4>
      <NamedList items={data.topics} label="Template topics" />
      {data.entities && data.entities.length > 0 && (
        <>
          <h4>Entities ({data.entities.length})</h4>
          <ul className="hz-chips" aria-label="Template entities">
            {data.entities.map((e) => (
              <li key={`${e.type}:${e.name}`} data-entity-type={e.type}>
                {e.name} <span className="hz-muted">({e.type})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {data.inclusion_notes ? <p><strong>Include:</strong> {data.inclusion_notes}</p> : null}
      {data.exclusion_notes ? <p><strong>Exclude:</strong> {data.exclusion_notes}</p> : null}
      {data.queries && data.queries.length > 0 && (
        <>
          <h4>PubMed queries ({data.queries.length})</h4>
          {data.queries.map((q, i) => (
            <pre key={i} className="hz-query">
              {q.query}
            </pre>
          ))}
        </>
      )}
      {data.categories && data.categories.length > 0 && (
        <>
          <h4>Report categories ({data.categories.length})</h4>
          <NamedList items={data.categories} label="Template categories" />
        </>
      )}
      <p className="hz-muted">Accepting fills the form; nothing is saved until you create the stream.</p>
      {error !== null && (
        <p className="hz-card-error" role="alert">
          {error}
        </p>
      )}
      <div className="hz-card-actions">
        {callbacks.canAccept && (
          <Button variant="primary" onClick={() => { callbacks.onAccept(); }}>
            Fill the form
          </Button>
        )}
        {onCreate && (
          <Button variant="secondary" disabled={busy} onClick={create}>
            {busy ? "Creating…" : "Create stream now"}
          </Button>
        )}
        <Button variant={callbacks.canAccept ? "secondary" : "quiet"} onClick={callbacks.onReject}>
          {callbacks.canAccept ? "Reject" : "Close"}
        </Button>
      </div>
    </div>
  );
}
