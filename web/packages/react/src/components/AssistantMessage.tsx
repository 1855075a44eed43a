import { ReasoningBlock } from "./ReasoningBlock";
import { memo, useMemo, type ReactNode } from "react";
import { sourcesByNumber } from "../citations";
import type { ChatMessage, CustomPayload, SuggestedAction } from "../types";
import { ChoiceContext, type ChoiceState } from "./ChoiceContext";
import { ErrorBubble } from "./ErrorBubble";
import { MessageContent } from "./MessageContent";
import { PayloadErrorCard, payloadErrors } from "./PayloadErrorCard";
import { PayloadViewButtons, type PayloadView } from "./PayloadViewButtons";
import { SourceList } from "./SourceList";
import { SourcesContext } from "./SourcesContext";
import { SuggestedActions } from "./SuggestedActions";
import { SuggestedValues } from "./SuggestedValues";
import { MESSAGE_TONE } from "../status";

export interface AssistantMessageProps {
  message: ChatMessage;
  choices: ChoiceState;
  /** Chips and actions can be used (this is the latest answer and nothing is running). */
  interactive: boolean;
  payloadViews: PayloadView[];
  onPick: (value: string) => void;
  isActionAvailable: (action: SuggestedAction) => boolean;
  onRunAction: (action: SuggestedAction) => Promise<void>;
  onViewPayload: (messageId: string, payload: CustomPayload) => void;
  onRetry?: () => void;
  /** The answer is still being written (its last markdown block may be incomplete). */
  streaming?: boolean;
  /** The approval card of an answer paused before a tool call. */
  approval?: ReactNode;
  /** "Continue" under an answer cut off by the length limit: the same answer goes on. */
  onContinue?: (messageId: string) => void;
  /** The action bar (copy, versions, feedback, ...). */
  actions?: ReactNode;
}

const STATUS_LABEL: Partial<Record<ChatMessage["status"], string>> = {
  cancelled: "Stopped",
  interrupted: "Interrupted",
};

/**
 * An answer: markdown with tool cards and choices, then chips, actions and payload buttons.
 * The answer being streamed is the same component under the same key as the message it
 * becomes, so its finished markdown blocks are never rendered twice.
 */
export const AssistantMessage = memo(function AssistantMessage(props: AssistantMessageProps) {
  const { message, choices, interactive, payloadViews, streaming = false } = props;
  const label = STATUS_LABEL[message.status];
  // From the message's id, so a reloaded answer's ids are the live one's.
  const prefix = `pc-${message.id.replace(/[^\w-]/g, "_")}`;
  const { sources } = message;
  const answerSources = useMemo(() => ({ byNumber: sourcesByNumber(sources), prefix }), [sources, prefix]);
  return (
    <div className="pc-message-row" data-row="assistant">
    <div
      className="pc-message"
      data-role="assistant"
      data-status={streaming ? "streaming" : message.status}
      aria-busy={streaming ? true : undefined}
    >
      <div className="pc-bubble">
        {message.reasoning && message.reasoning.text !== "" && (
          <ReasoningBlock text={message.reasoning.text} seconds={message.reasoning.seconds} live={false} />
        )}
        {message.content !== "" && (
          <ChoiceContext.Provider value={choices}>
            <SourcesContext.Provider value={answerSources}>
              <MessageContent content={message.content} toolHistory={message.tool_history} streaming={streaming} />
            </SourcesContext.Provider>
          </ChoiceContext.Provider>
        )}
        <SourceList sources={sources} prefix={prefix} />
        {streaming && (
          <span className="pc-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
        )}
        {payloadErrors(message.payloads).map((error, i) => (
          <PayloadErrorCard key={i} error={error} />
        ))}
        {label && (
          <div className="pc-status-badge" data-tone={MESSAGE_TONE[message.status]}>
            {label}
          </div>
        )}
        {message.warnings.map((w, i) => (
          <div key={i} className="pc-warning">
            {w}
          </div>
        ))}
      </div>
      {props.approval}
      {message.status === "error" && (
        <ErrorBubble message={message.error ?? "The answer failed."} onRetry={props.onRetry} />
      )}
      {message.stop_reason === "max_tokens" && !streaming && (
        <div className="pc-cutoff" role="note" data-cutoff>
          Cut off: the answer reached its length limit.
          {interactive && props.onContinue && (
            <button
              type="button"
              onClick={() => {
                props.onContinue?.(message.id);
              }}
            >
              Continue
            </button>
          )}
        </div>
      )}
      <SuggestedValues values={message.suggested_values} disabled={!interactive} onPick={props.onPick} />
      <SuggestedActions
        actions={message.suggested_actions}
        disabled={!interactive}
        isAvailable={props.isActionAvailable}
        onRun={props.onRunAction}
      />
      <PayloadViewButtons
        views={payloadViews}
        onView={(payload) => {
          props.onViewPayload(message.id, payload);
        }}
      />
    </div>
      {props.actions}
    </div>
  );
});
