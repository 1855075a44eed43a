export function ThinkingIndicator({ text }: { text: string | null }) {
  return (
    <div className="pc-message" data-role="assistant" data-status="thinking">
      <div className="pc-bubble pc-thinking" role="status">
        <span className="pc-thinking-text">{text ?? "Thinking…"}</span>
        <span className="pc-dots" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
      </div>
    </div>
  );
}
