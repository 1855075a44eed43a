import { Link } from "../../app/router";
import type { StreamPublic } from "../generated/api";
import { paths } from "../paths";

/** One research stream in the list: what it follows, and its reports. */
export function StreamCard({ stream }: { stream: StreamPublic }) {
  const topics = stream.semantic_space.topics;
  return (
    <li className="hz-stream-card" aria-labelledby={`stream-${String(stream.id)}`} data-stream-id={stream.id}>
      <h2 id={`stream-${String(stream.id)}`}>
        <Link to={paths.stream(stream.id)}>{stream.name}</Link>
      </h2>
      {stream.purpose ? <p>{stream.purpose}</p> : <p className="hz-muted">No purpose yet.</p>}
      {topics.length > 0 && (
        <ul className="hz-chips" aria-label="Topics">
          {topics.map((t) => (
            <li key={t.name}>{t.name}</li>
          ))}
        </ul>
      )}
      <p className="hz-stream-facts">
        {stream.report_count} report{stream.report_count === 1 ? "" : "s"}
        {stream.latest_report_date ? ` · latest ${stream.latest_report_date}` : ""}
      </p>
      <div className="hz-row">
        <Link to={paths.stream(stream.id)} className="hz-button">
          Edit
        </Link>
        {stream.report_count > 0 && (
          <Link to={paths.streamReports(stream.id)} className="hz-button">
            Reports
          </Link>
        )}
      </div>
    </li>
  );
}
