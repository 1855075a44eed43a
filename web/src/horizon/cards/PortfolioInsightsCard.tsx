import type { PayloadCallbacks } from "@pagechat/react";
import { Link } from "../../app/router";
import type { PortfolioInsights } from "../generated/payloads.gen";
import { paths } from "../paths";
import { CardActions } from "./CardActions";
import { Prose } from "./Prose";

export interface PortfolioInsightsCardProps {
  data: PortfolioInsights;
  callbacks: PayloadCallbacks;
  /** The name of one of the user's streams, by id (undefined: not one of theirs). */
  streamName: (id: number) => string | undefined;
}

/** Overlaps, gaps and coverage across the user's streams. */
export function PortfolioInsightsCard({ data, callbacks, streamName }: PortfolioInsightsCardProps) {
  return (
    <div className="hz-card" data-card="portfolio-insights">
      <Prose text={data.summary} />
      <ul className="hz-insights">
        {data.insights.map((insight, i) => (
          <li key={i} data-kind={insight.kind}>
            <span className="hz-badge" data-kind={insight.kind}>
              {insight.kind}
            </span>
            <h3 className="hz-card-title">{insight.title}</h3>
            <Prose text={insight.detail} />
            {insight.stream_ids && insight.stream_ids.length > 0 && (
              <p className="hz-stream-links">
                {insight.stream_ids.map((id) => {
                  const name = streamName(id);
                  return name === undefined ? (
                    <span key={id}>Stream {id}</span>
                  ) : (
                    <Link key={id} to={paths.stream(id)}>
                      {name}
                    </Link>
                  );
                })}
              </p>
            )}
          </li>
        ))}
      </ul>
      {data.recommendations && data.recommendations.length > 0 && (
        <>
          <h4>Recommendations</h4>
          <ul>
            {data.recommendations.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </>
      )}
      <CardActions rejectLabel="Dismiss" onReject={callbacks.onReject} />
    </div>
  );
}
