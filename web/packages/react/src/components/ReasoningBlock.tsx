/**
 * The model's reasoning beside its answer: live, "Thinking…" with the reasoning as it
 * streams; once done, collapsed to "Thought for N s", expandable to read it. The
 * duration is the stored one (first to last reasoning delta), so a reload shows the same.
 */
export function ReasoningBlock({ text, seconds, live }: { text: string; seconds: number | null; live: boolean }) {
  if (live) {
    return (
      <div className="pc-reasoning" data-reasoning="live">
        <div className="pc-reasoning-label" role="status">
          Thinking…
        </div>
        <div className="pc-reasoning-text">{text}</div>
      </div>
    );
  }
  return (
    <details className="pc-reasoning" data-reasoning="done">
      <summary className="pc-reasoning-label">{thoughtFor(seconds)}</summary>
      <div className="pc-reasoning-text">{text}</div>
    </details>
  );
}

/** "Thought for 6 s" (whole seconds, at least 1); "Thought" when the duration is unknown. */
export function thoughtFor(seconds: number | null): string {
  if (seconds === null) return "Thought";
  return `Thought for ${String(Math.max(1, Math.round(seconds)))} s`;
}
