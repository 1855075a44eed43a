import { ReasoningBlock } from "./ReasoningBlock";
import { useCallback, useMemo, useState, type ReactNode } from "react";
import { emptyMessage, liveExtras, liveSources, liveToolHistory } from "../state";
import type { PayloadHandler } from "../payloadRegistry";
import type { ChatMessage, CustomPayload, SuggestedAction } from "../types";
import type { UseChat } from "../useChat";
import { useAutoScroll } from "../useAutoScroll";
import { useLoadOlder } from "../useLoadOlder";
import type { AttachmentDrafts } from "../controller/attachments";
import { ActionMessage } from "./ActionMessage";
import { ApprovalCard } from "./ApprovalCard";
import { AssistantMessage } from "./AssistantMessage";
import type { ChoiceState } from "./ChoiceContext";
import { EditMessage } from "./EditMessage";
import { ErrorBubble } from "./ErrorBubble";
import { JumpToLatest } from "./JumpToLatest";
import { MessageActions } from "./MessageActions";
import type { PayloadView } from "./PayloadViewButtons";
import { ThinkingIndicator } from "./ThinkingIndicator";
import { ToolProgressCard } from "./ToolProgressCard";
import { UserMessage } from "./UserMessage";

export interface MessageListProps {
  chat: UseChat;
  welcome: ReactNode;
  onSend: (text: string) => void;
  isActionAvailable: (action: SuggestedAction) => boolean;
  onRunAction: (action: SuggestedAction) => Promise<void>;
  resolveHandler: (type: string) => PayloadHandler | undefined;
  onViewPayload: (messageId: string, payload: CustomPayload) => void;
}

/**
 * A message's payloads that have a handler, one per type (so a result a tool returned and the
 * model then restated is not offered twice): its primary payload for its type, else the last of
 * that type; the primary first.
 */
export function payloadViews(message: ChatMessage, resolve: (type: string) => PayloadHandler | undefined): PayloadView[] {
  const byType = new Map<string, CustomPayload>();
  const primary = message.custom_payload;
  if (primary !== null) byType.set(primary.type, primary);
  for (const payload of message.payloads) if (payload.type !== primary?.type) byType.set(payload.type, payload);
  const views: PayloadView[] = [];
  for (const payload of byType.values()) {
    const handler = resolve(payload.type);
    const decision = payload === primary ? message.payload_decision : null;
    if (handler) views.push({ payload, handler, decision });
  }
  return views;
}

const STREAMING_CHOICES: ChoiceState = { mode: "streaming", selected: null, choose: () => undefined };
const NO_VIEWS: PayloadView[] = [];

/** An answer's key: the streaming answer and the message it becomes share it (by their run). */
function keyOf(message: ChatMessage): string {
  return message.role === "assistant" && message.run_id !== null ? `run-${message.run_id}` : message.id;
}

export function MessageList(props: MessageListProps) {
  const { chat, onSend } = props;
  const { messages, isLoading, streamingText, statusText, activeToolProgress, liveTools, liveParts, chatError, status, runId } = chat;
  const change = useMemo(() => [messages, streamingText, activeToolProgress, status], [messages, streamingText, activeToolProgress, status]);
  const { scrollerRef, contentRef, following, jumpToLatest } = useAutoScroll(change);
  const loadOlder = useLoadOlder(scrollerRef, chat.hasOlder, chat.loadOlder, messages[0]?.id);

  // For each message: the text of the first user message after it (it answered its choices).
  const answers = useMemo(() => {
    const result: (string | null)[] = new Array<string | null>(messages.length).fill(null);
    let next: string | null = null;
    for (let i = messages.length - 1; i >= 0; i--) {
      result[i] = next;
      const m = messages[i];
      if (m?.role === "user") next = m.content;
    }
    return result;
  }, [messages]);

  const choiceStates = useMemo(
    () =>
      answers.map((answer): ChoiceState => {
        if (answer !== null) return { mode: "answered", selected: answer, choose: onSend };
        return { mode: isLoading ? "busy" : "open", selected: null, choose: onSend };
      }),
    [answers, isLoading, onSend],
  );

  const { resolveHandler } = props;
  const views = useMemo(() => messages.map((m) => payloadViews(m, resolveHandler)), [messages, resolveHandler]);
  const { retry: retryChat, stop: stopChat } = chat;
  const retry = useCallback(() => void retryChat(), [retryChat]);
  const stop = useCallback(() => void stopChat(), [stopChat]);

  const lastAssistant = messages.findLastIndex((m) => m.role === "assistant");
  const streamingTools = useMemo(() => liveToolHistory(liveTools.filter((t) => t.done)), [liveTools]);
  const streamingSources = useMemo(() => liveSources(liveTools.filter((t) => t.done)), [liveTools]);
  const live = useMemo<ChatMessage | null>(
    () =>
      streamingText === ""
        ? null
        : {
            ...emptyMessage(runId === null ? "streaming" : `run-${runId}`, "assistant", streamingText),
            ...liveExtras(liveTools, liveParts),
            status: "running",
            tool_history: streamingTools,
            sources: streamingSources,
            run_id: runId,
          },
    [streamingText, streamingTools, streamingSources, liveTools, liveParts, runId],
  );
  // The model's cards as they come: "View" opens one while the answer goes on.
  const liveViews = useMemo(() => (live === null ? NO_VIEWS : payloadViews(live, resolveHandler)), [live, resolveHandler]);
  const { streamingReasoning } = chat;
  const reasoningLive = isLoading && streamingReasoning !== "" && streamingText === "" && activeToolProgress === null;
  const showThinking = isLoading && streamingText === "" && activeToolProgress === null && !reasoningLive;
  // The question being edited, and its files (kept, removed, added) while it is.
  const [editing, setEditing] = useState<{ id: string; drafts: AttachmentDrafts } | null>(null);
  const { controller } = chat;
  const actionsOf = (m: ChatMessage, i: number) => (
    <MessageActions
      message={m}
      idle={!isLoading}
      last={i === messages.length - 1}
      onSelectBranch={(id, position) => void controller.selectBranch(id, position)}
      onRegenerate={(id) => void controller.regenerate(id)}
      onContinue={(id) => void controller.continueAnswer(id)}
      onRate={controller.setFeedback}
      onEdit={() => {
        setEditing({ id: m.id, drafts: controller.editDrafts(m.attachments) });
      }}
    />
  );

  return (
    <div className="pc-messages-wrap">
      <div ref={scrollerRef} className="pc-messages" role="log" aria-live="polite" aria-relevant="additions text" aria-label="Conversation">
        <div ref={contentRef} className="pc-messages-content">
          {chat.hasOlder && (
            <button type="button" className="pc-older" data-older onClick={loadOlder}>
              Show earlier messages
            </button>
          )}
          {messages.length === 0 && !isLoading && <div className="pc-welcome">{props.welcome}</div>}
          {[
            ...messages.map((m, i) => {
              if (m.role === "user" && editing?.id === m.id) {
                return (
                  <EditMessage
                    key={m.id}
                    initial={m.content}
                    drafts={editing.drafts}
                    onCancel={() => {
                      setEditing(null);
                    }}
                    onSend={(text, attachments) => {
                      setEditing(null);
                      void controller.editAndResend(m.id, text, attachments);
                    }}
                  />
                );
              }
              if (m.role === "user") return <UserMessage key={m.id} message={m} actions={actionsOf(m, i)} />;
              if (m.role === "action") return <ActionMessage key={m.id} message={m} />;
              const latest = i === lastAssistant && answers[i] === null;
              return (
                <AssistantMessage
                  key={keyOf(m)}
                  message={m}
                  choices={choiceStates[i] ?? STREAMING_CHOICES}
                  interactive={latest && !isLoading}
                  payloadViews={views[i] ?? NO_VIEWS}
                  onPick={onSend}
                  isActionAvailable={props.isActionAvailable}
                  onRunAction={props.onRunAction}
                  onViewPayload={props.onViewPayload}
                  onRetry={latest && chatError?.inMessage && chatError.retry === "resend" ? retry : undefined}
                  approval={
                    m.status === "needs_approval" && m.approval !== null ? (
                      <ApprovalCard approval={m.approval} enabled={!isLoading} onDecide={chat.decideApproval} />
                    ) : undefined
                  }
                  onContinue={(id) => void controller.continueAnswer(id)}
                  actions={actionsOf(m, i)}
                />
              );
            }),
            isLoading && streamingReasoning !== "" && (
              <div key="live-reasoning" className="pc-message" data-role="assistant" data-status="reasoning">
                <ReasoningBlock text={streamingReasoning} seconds={null} live={reasoningLive} />
              </div>
            ),
            live && (
              <AssistantMessage
                key={keyOf(live)}
                message={live}
                streaming={isLoading}
                choices={STREAMING_CHOICES}
                interactive={false}
                payloadViews={liveViews}
                onPick={onSend}
                isActionAvailable={props.isActionAvailable}
                onRunAction={props.onRunAction}
                onViewPayload={props.onViewPayload}
              />
            ),
          ]}
          {isLoading && activeToolProgress !== null && (
            <ToolProgressCard progress={activeToolProgress} onStop={stop} />
          )}
          {showThinking && <ThinkingIndicator text={status === "reconnecting" ? "Reconnecting…" : statusText} />}
          {status === "reconnecting" && !showThinking && (
            <div className="pc-notice" role="status">
              Reconnecting…
            </div>
          )}
          {chatError !== null && !chatError.inMessage && (
            <ErrorBubble
              message={chatError.message}
              onRetry={chatError.retry === "none" ? undefined : retry}
            />
          )}
        </div>
      </div>
      {!following && <JumpToLatest onClick={jumpToLatest} />}
    </div>
  );
}
