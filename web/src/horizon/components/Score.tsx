/** A relevance score (0..1) as a number and a bar. */
export function Score({ value }: { value: number }) {
  const clamped = Math.max(0, Math.min(1, value));
  return (
    <span className="hz-score" title="Relevance score">
      <meter min={0} max={1} value={clamped} aria-label="Relevance score" />
      <span>{value.toFixed(2)}</span>
    </span>
  );
}
