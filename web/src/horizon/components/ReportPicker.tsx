import { useCallback } from "react";
import { navigate } from "../../app/router";
import { useHorizonApi } from "../HorizonContext";
import { paths } from "../paths";
import { useEntityChanges } from "../useEntityChanges";
import { useLoad } from "../../app/useLoad";

/** The stream's reports, newest first, to move between them. */
export function ReportPicker({ streamId, reportId }: { streamId: number; reportId: number }) {
  const api = useHorizonApi();
  const load = useCallback(
    async () => (await api.call("GET /api/horizon/streams/{stream_id}/reports", { path: { stream_id: streamId } })).data,
    [api, streamId],
  );
  const { state, reload } = useLoad(load);
  // A report the assistant deleted (or made) leaves the list at once.
  useEntityChanges("report", reload);
  if (state.status !== "ready" || state.data.length < 2) return null;
  return (
    <label className="hz-inline-field">
      <span>Report</span>
      <select
        value={reportId}
        onChange={(e) => {
          navigate(paths.report(Number(e.target.value)));
        }}
      >
        {state.data.map((r) => (
          <option key={r.id} value={r.id}>
            {r.report_date} ({r.article_count} articles)
          </option>
        ))}
      </select>
    </label>
  );
}
