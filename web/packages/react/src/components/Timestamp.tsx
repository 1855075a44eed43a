const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "just now", "5 minutes ago", "yesterday": how long ago `when` was, from `now`. */
export function relativeTime(when: Date, now: Date = new Date()): string {
  const seconds = Math.round((when.getTime() - now.getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** When a message was written: relative, with the exact time on hover (and for screen readers). */
export function Timestamp({ iso }: { iso: string | null }) {
  if (iso === null) return null;
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return null;
  const exact = when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
  return (
    <time className="pc-time" dateTime={when.toISOString()} title={exact} aria-label={exact}>
      {relativeTime(when)}
    </time>
  );
}
