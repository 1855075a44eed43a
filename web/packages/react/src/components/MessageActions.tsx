import { choicesAsText } from "../choices";
import type { ChatMessage, FeedbackRating } from "../types";
import { BranchPicker } from "./BranchPicker";
import { CopyButton } from "./CopyButton";
import { FeedbackButtons } from "./FeedbackButtons";
import { Timestamp } from "./Timestamp";

export interface MessageActionsProps {
  message: ChatMessage;
  /** Nothing is running: versions can be switched and new ones started. */
  idle: boolean;
  /** The last message of the path shown (only it can be continued). */
  last: boolean;
  onSelectBranch: (messageId: string, position: number) => void;
  onRegenerate?: (messageId: string) => void;
  onEdit?: () => void;
  onContinue?: (messageId: string) => void;
  onRate?: (messageId: string, rating: FeedbackRating, comment: string | null) => Promise<boolean>;
}

const TOOL_MARKER = /\[\[tool:\d+\]\]/g;

/** An answer as markdown, as the user read it: without the markers only the tray understands,
 * each choice as its question and options, and its Sources list after it (its `[n]` name them). */
export function markdownOf(message: ChatMessage): string {
  const text = choicesAsText(message.content.replace(TOOL_MARKER, "")).trim();
  const sources = message.sources.filter((s) => s.number !== null);
  if (sources.length === 0) return text;
  const web = (url: string | null) => (url !== null && /^https?:\/\//i.test(url) ? url : "");
  const lines = sources.map((s) => [`[${String(s.number)}] ${s.title}`, s.detail, web(s.url)].filter(Boolean).join(". "));
  return `${text}\n\nSources:\n${lines.join("\n")}`;
}

/** Whether an answer stopped before its end, so Continue can take it further. */
export function canContinue(message: ChatMessage): boolean {
  if (message.role !== "assistant") return false;
  return (
    message.status === "cancelled" ||
    message.status === "interrupted" ||
    (message.status === "error" && message.content !== "") ||
    (message.status === "complete" && message.stop_reason === "max_tokens")
  );
}

/** The bar under a message: versions, time, copy, and what can be done with it. */
export function MessageActions(props: MessageActionsProps) {
  const { message, idle } = props;
  const answer = message.role === "assistant";
  return (
    <div className="pc-message-actions" role="toolbar" aria-label={answer ? "Answer actions" : "Message actions"}>
      <BranchPicker
        position={message.sibling_position}
        count={message.sibling_count}
        disabled={!idle}
        onSelect={(position) => {
          props.onSelectBranch(message.id, position);
        }}
      />
      <Timestamp iso={message.created_at} />
      <CopyButton text={answer ? markdownOf(message) : message.content} label={answer ? "Copy answer" : "Copy message"} />
      {!answer && props.onEdit && (
        <button type="button" aria-label="Edit message" title="Edit and resend" disabled={!idle} onClick={props.onEdit}>
          Edit
        </button>
      )}
      {answer && props.onRegenerate && (
        <button
          type="button"
          aria-label="Regenerate answer"
          title="Regenerate answer"
          disabled={!idle}
          onClick={() => {
            props.onRegenerate?.(message.id);
          }}
        >
          Regenerate
        </button>
      )}
      {/* A cut-off answer offers Continue in its notice already. */}
      {answer && props.last && props.onContinue && canContinue(message) && message.stop_reason !== "max_tokens" && (
        <button
          type="button"
          aria-label="Continue answer"
          title="Continue this answer where it stopped"
          disabled={!idle}
          onClick={() => {
            props.onContinue?.(message.id);
          }}
        >
          Continue
        </button>
      )}
      {answer && props.onRate && message.status !== "running" && (
        <FeedbackButtons
          feedback={message.feedback}
          onRate={(rating, comment) => props.onRate?.(message.id, rating, comment) ?? Promise.resolve(false)}
        />
      )}
    </div>
  );
}
