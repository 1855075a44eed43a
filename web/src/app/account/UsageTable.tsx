import type { Grouping, UsageRow } from "./accountApi";
import { COUNT_COLUMNS, formatCount, GROUP_LABELS, groupCell, totals } from "./usage";

export interface UsageTableProps {
  by: readonly Grouping[];
  rows: readonly UsageRow[];
}

/** The report: one row per group, the counts right-aligned, their totals in the footer. */
export function UsageTable({ by, rows }: UsageTableProps) {
  if (rows.length === 0) return <p className="app-card">No tokens were used in these days.</p>;
  const sum = totals(rows);
  return (
    // Scrolls sideways on a narrow window: focusable, so a keyboard scrolls it too.
    <div className="app-table-scroll" role="region" aria-label="Usage table" tabIndex={0}>
      <table className="app-table">
        <caption className="app-visually-hidden">Tokens used, by {by.map((g) => GROUP_LABELS[g].toLowerCase()).join(", ")}</caption>
        <thead>
          <tr>
            {by.map((g) => (
              <th key={g} scope="col">
                {GROUP_LABELS[g]}
              </th>
            ))}
            {COUNT_COLUMNS.map((c) => (
              <th key={c.key} scope="col" className="app-num">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={by.map((g) => row[g] ?? "").join("\u0000")}>
              {by.map((g) => (
                <td key={g}>{groupCell(row, g)}</td>
              ))}
              {COUNT_COLUMNS.map((c) => (
                <td key={c.key} className="app-num">
                  {formatCount(row[c.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={by.length}>
              Total
            </th>
            {COUNT_COLUMNS.map((c) => (
              <td key={c.key} className="app-num">
                {formatCount(sum[c.key])}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
