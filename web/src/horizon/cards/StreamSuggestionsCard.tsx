import type { PayloadCallbacks } from "@pagechat/react";
import type { StreamSuggestions } from "../generated/payloads.gen";
import { CardActions } from "./CardActions";
import { Prose } from "./Prose";

/** Ideas for new streams; starting one opens the new stream form filled with it. */
export function StreamSuggestionsCard({ data, callbacks }: { data: StreamSuggestions; callbacks: PayloadCallbacks }) {
  return (
    <div className="hz-card" data-card="stream-suggestions">
      {data.reasoning ? <Prose text={data.reasoning} /> : null}
      <ul className="hz-suggestions">
        {data.suggestions.map((s, i) => (
          <li key={`${s.name}-${String(i)}`} aria-label={s.name}>
            <h3 className="hz-card-title">{s.name}</h3>
            <p>{s.purpose}</p>
            {s.topics && s.topics.length > 0 && (
              <ul className="hz-chips" aria-label="Topics">
                {s.topics.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            )}
            {s.rationale ? <p className="hz-muted">{s.rationale}</p> : null}
            {callbacks.canAccept && (
              <button
                type="button"
                data-style="primary"
                onClick={() => {
                  callbacks.onAccept({ ...data, suggestions: [s] });
                }}
              >
                Start this stream
              </button>
            )}
          </li>
        ))}
      </ul>
      <CardActions rejectLabel="Dismiss" onReject={callbacks.onReject} />
    </div>
  );
}
