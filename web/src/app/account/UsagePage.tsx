// The admins' usage page: tokens by user, model, day and/or purpose for a range of UTC days,
// the prompt cache's reads and writes apart, and the same report as a CSV sheet. Anyone
// else is told it is not for them (the server refuses them: 403).
import { useCallback, useState } from "react";
import { Button, HttpError } from "@pagechat/react";
import { useLoad } from "../useLoad";
import { accountApi, usageUrl, type UsageQuery } from "./accountApi";
import { Refusal } from "./Refusal";
import { defaultQuery } from "./usage";
import { UsageFilters } from "./UsageFilters";
import { UsageTable } from "./UsageTable";

export function UsagePage() {
  const [query, setQuery] = useState<UsageQuery>(() => defaultQuery());
  const load = useCallback(() => accountApi.usage(query), [query]);
  const { state, reload } = useLoad(load);
  const error = state.status === "error" ? state.error : null;
  if (error instanceof HttpError && (error.status === 403 || error.status === 404))
    return <Refusal title="Not allowed">The usage figures are for administrators, and your account is not one.</Refusal>;
  return (
    <section className="app-stack" aria-labelledby="usage-title">
      <div className="app-page-head">
        <h1 id="usage-title">Usage</h1>
        <a className="pc-btn" data-variant="secondary" data-size="md" href={usageUrl(query, "csv")} download="pagechat-usage.csv">
          Download CSV
        </a>
      </div>
      <UsageFilters query={query} onChange={setQuery} />
      {state.status === "loading" && (
        <p className="app-loading" role="status">
          Loading…
        </p>
      )}
      {error !== null && (
        <div className="app-card" role="alert">
          <p className="app-error">The usage could not be loaded: {error.message}</p>
          <Button onClick={reload}>Retry</Button>
        </div>
      )}
      {state.status === "ready" && <UsageTable by={state.data.by} rows={state.data.rows} />}
      <p className="app-note">
        Days are UTC. Input tokens include the prompt-cache reads and writes. Title calls are the small calls that name a new
        conversation: their tokens are in the sums (group by purpose to see them apart).
      </p>
    </section>
  );
}
