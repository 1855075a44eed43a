import { useState } from "react";
import type { PayloadCallbacks } from "@pagechat/react";
import type { TopicSuggestions } from "../generated/payloads.gen";
import { CardActions } from "./CardActions";
import { Prose } from "./Prose";

/** Topics to add to the draft: each can be left out before accepting. */
export function TopicSuggestionsCard({ data, callbacks }: { data: TopicSuggestions; callbacks: PayloadCallbacks }) {
  const [chosen, setChosen] = useState<boolean[]>(() => data.topics.map(() => true));
  const count = chosen.filter(Boolean).length;
  const accept = () => {
    callbacks.onAccept({ ...data, topics: data.topics.filter((_, i) => chosen[i]) });
  };
  return (
    <div className="hz-card" data-card="topic-suggestions">
      {data.reasoning ? <Prose text={data.reasoning} /> : null}
      <fieldset className="hz-choice-list">
        <legend>Topics to add</legend>
        {data.topics.map((topic, i) => (
          <label key={`${topic.name}-${String(i)}`}>
            <input
              type="checkbox"
              checked={chosen[i] ?? false}
              onChange={(e) => {
                const next = [...chosen];
                next[i] = e.target.checked;
                setChosen(next);
              }}
            />
            <span>
              <strong>{topic.name}</strong>
              {topic.description ? <span className="hz-muted"> — {topic.description}</span> : null}
            </span>
          </label>
        ))}
      </fieldset>
      <CardActions
        acceptLabel={`Add ${String(count)} topic${count === 1 ? "" : "s"}`}
        acceptDisabled={count === 0}
        onAccept={callbacks.canAccept ? accept : undefined}
        rejectLabel={callbacks.canAccept ? "Reject" : "Close"}
        onReject={callbacks.onReject}
      />
    </div>
  );
}
