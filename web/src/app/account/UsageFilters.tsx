import { GROUPINGS, type Grouping, type UsageQuery } from "./accountApi";
import { GROUP_LABELS, toggleGroup } from "./usage";

export interface UsageFiltersProps {
  query: UsageQuery;
  onChange: (query: UsageQuery) => void;
}

/** The report's days (from, to: UTC, both included) and what its rows are grouped by. */
export function UsageFilters({ query, onChange }: UsageFiltersProps) {
  const group = (g: Grouping, on: boolean) => {
    onChange({ ...query, by: toggleGroup(query.by, g, on, GROUPINGS) });
  };
  return (
    <form className="app-card app-usage-filters" aria-label="Usage filters" onSubmit={(e) => { e.preventDefault(); }}>
      <div className="app-row app-usage-days">
        <label>
          From
          <input type="date" value={query.since} max={query.until || undefined} onChange={(e) => { onChange({ ...query, since: e.target.value }); }} />
        </label>
        <label>
          To
          <input type="date" value={query.until} min={query.since || undefined} onChange={(e) => { onChange({ ...query, until: e.target.value }); }} />
        </label>
      </div>
      <fieldset className="app-usage-groups">
        <legend>Group by</legend>
        {GROUPINGS.map((g) => (
          <label key={g} className="app-check">
            <input
              type="checkbox"
              checked={query.by.includes(g)}
              // The last grouping stays: a report grouped by nothing is one row of totals,
              // which the table's footer already shows.
              disabled={query.by.length === 1 && query.by.includes(g)}
              onChange={(e) => { group(g, e.target.checked); }}
            />
            {GROUP_LABELS[g]}
          </label>
        ))}
      </fieldset>
    </form>
  );
}
