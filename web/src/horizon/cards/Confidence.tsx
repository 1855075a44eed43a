/** The model's confidence in a proposal, as a badge. */
export function Confidence({ level }: { level: "low" | "medium" | "high" | undefined }) {
  if (level === undefined) return null;
  return (
    <span className="hz-badge" data-confidence={level}>
      {level} confidence
    </span>
  );
}
