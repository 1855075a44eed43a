import { useCallback, useEffect, useMemo } from "react";
import { usePageChat } from "../../app/pageChat";
import { Link, navigate } from "../../app/router";
import { LoadState } from "../components/LoadState";
import { useHorizonApi } from "../HorizonContext";
import { paths } from "../paths";
import { useLoad } from "../useLoad";

/** A stream's reports: opens the newest one. */
export function StreamReportsPage({ streamId }: { streamId: number }) {
  const api = useHorizonApi();
  const load = useCallback(
    async () => (await api.call("GET /api/horizon/streams/{stream_id}/reports", { path: { stream_id: streamId } })).data,
    [api, streamId],
  );
  const { state, reload } = useLoad(load);
  const latest = state.data?.[0];
  useEffect(() => {
    if (latest !== undefined) navigate(paths.report(latest.id), { replace: true });
  }, [latest]);
  const chat = useMemo(() => ({ context: { current_page: "reports", stream_id: streamId } }), [streamId]);
  usePageChat(chat);
  return (
    <section className="hz-page">
      <LoadState state={state} what="the stream's reports" onRetry={reload}>
        {(reports) =>
          reports.length === 0 ? (
            <div className="hz-empty">
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
