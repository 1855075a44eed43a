import { useCallback, useEffect, useMemo, useState } from "react";
import { usePageChat } from "../../app/pageChat";
import { Link, navigate } from "../../app/router";
import { LoadState } from "../components/LoadState";
import { Notice } from "../components/Notice";
import { useHorizonApi } from "../HorizonContext";
import { paths } from "../paths";
import { noticeOnArrival } from "../useEntityChanges";
import { useLoad } from "../../app/useLoad";

/** A stream's reports: opens the newest one. */
export function StreamReportsPage({ streamId }: { streamId: number }) {
  const api = useHorizonApi();
  const load = useCallback(
    async () => (await api.call("GET /api/horizon/streams/{stream_id}/reports", { path: { stream_id: streamId } })).data,
    [api, streamId],
  );
  const { state, reload } = useLoad(load);
  const latest = state.data?.[0];
  // A notice this page was opened with (a deleted report's) goes on to the report it opens.
  const [notice] = useState(noticeOnArrival);
  useEffect(() => {
    if (latest !== undefined) navigate(paths.report(latest.id), { replace: true, state: notice === null ? null : { notice } });
  }, [latest, notice]);
  const chat = useMemo(() => ({ context: { current_page: "reports", stream_id: streamId } }), [streamId]);
  usePageChat(chat);
  return (
    <section className="hz-page">
      <LoadState state={state} what="the stream's reports" onRetry={reload}>
        {(reports) =>
          reports.length === 0 ? (
            <div className="hz-empty">
              {notice !== null && <Notice tone="info" text={notice} />}
              <p>This stream has no reports yet.</p>
              <Link to={paths.stream(streamId)}>Back to the stream</Link>
            </div>
          ) : (
            <p className="hz-muted" role="status">
              Opening the latest report…
            </p>
          )
        }
      </LoadState>
    </section>
  );
}
