// The usage page's logic: its default filters, the table's columns, and the totals row.
import type { Grouping, UsageQuery, UsageRow } from "./accountApi";

export const GROUP_LABELS: Record<Grouping, string> = { user: "User", model: "Model", day: "Day", purpose: "Purpose" };

/** The counts of a row, in the table's order, with their headings. */
export const COUNT_COLUMNS = [
  { key: "answers", label: "Answers" },
  { key: "title_calls", label: "Title calls" },
  { key: "input_tokens", label: "Input tokens" },
  { key: "output_tokens", label: "Output tokens" },
  { key: "cache_read_tokens", label: "Cache read" },
  { key: "cache_write_tokens", label: "Cache write" },
] as const;

export type CountKey = (typeof COUNT_COLUMNS)[number]["key"];

/** The server's days are UTC: `YYYY-MM-DD` of `date` in UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The last 30 UTC days (today included), by user, model and day (the server's default). */
export function defaultQuery(now: Date = new Date()): UsageQuery {
  const first = new Date(now.getTime() - 29 * 24 * 60 * 60 * 1000);
  return { by: ["user", "model", "day"], since: utcDay(first), until: utcDay(now) };
}

/** `by` with `group` turned on or off, in the report's column order. */
export function toggleGroup(by: readonly Grouping[], group: Grouping, on: boolean, order: readonly Grouping[]): Grouping[] {
  const next = new Set(by);
  if (on) next.add(group);
  else next.delete(group);
  return order.filter((g) => next.has(g));
}

/** Every count summed over `rows`. */
export function totals(rows: readonly UsageRow[]): Record<CountKey, number> {
  const sum = Object.fromEntries(COUNT_COLUMNS.map((c) => [c.key, 0])) as Record<CountKey, number>;
  for (const row of rows) for (const { key } of COUNT_COLUMNS) sum[key] += row[key];
  return sum;
}

/** A count as the table shows it: digits grouped by thousands (1,234,567). */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** A grouped cell: a title call's row says so in words; a missing value is a dash. */
export function groupCell(row: UsageRow, group: Grouping): string {
  const value = row[group];
  if (group === "purpose") return value === "title" ? "Conversation titles" : value === "answer" ? "Answers" : "—";
  return value ?? "—";
}
