// A thin React hook over ChatController: subscribes to its state and exposes its commands.
import { useEffect, useState, useSyncExternalStore } from "react";
import type { ChatApi } from "./api";
import { ChatController, type Scheduler } from "./chat";
import { isBusy, type LiveParts, type LiveTool } from "./state";
import type { ActiveToolProgress, ChatError, ChatMessage, ChatStatus } from "./types";

export interface UseChatOptions {
  /** Keep it stable (create it once): the controller is bound to the first one. */
  api: ChatApi;
  /** The page state sent with every message; the latest value is used. */
  context: Record<string, unknown>;
  schedule?: Scheduler;
}

export interface UseChat {
  messages: ChatMessage[];
  status: ChatStatus;
  isLoading: boolean;
  streamingText: string;
  /** The model's reasoning streamed so far in the running turn. */
  streamingReasoning: string;
  statusText: string | null;
  activeToolProgress: ActiveToolProgress | null;
  /** Tool calls of the running turn, by `[[tool:N]]` index. */
  liveTools: LiveTool[];
  /** The model's cards, chips and actions of the running turn, shown as they came. */
  liveParts: LiveParts;
  /** The error's message, for display; `chatError` says what Retry will do. */
  error: string | null;
  chatError: ChatError | null;
  conversationId: string | null;
  /** The run being streamed, if any. */
  runId: string | null;
  /** Stored messages before the first one shown can be loaded (`loadOlder`). */
  hasOlder: boolean;
  controller: ChatController;
  send: ChatController["send"];
  /** Sends the composer's text with the files attached to it (`controller.drafts`). */
  sendDraft: ChatController["sendDraft"];
  stop: ChatController["stop"];
  retry: ChatController["retry"];
  loadConversation: ChatController["loadConversation"];
  loadOlder: ChatController["loadOlder"];
  newConversation: ChatController["newConversation"];
  runServerAction: ChatController["runServerAction"];
  runAction: ChatController["runAction"];
  decidePayload: ChatController["decidePayload"];
  decideApproval: ChatController["decideApproval"];
}

export function useChat({ api, context, schedule }: UseChatOptions): UseChat {
  const [controller] = useState(() => new ChatController({ api, schedule, context }));
  useEffect(() => {
    controller.setContext(context);
  }, [controller, context]);
  // Leaving the page stops following the stream; the run itself goes on on the server.
  useEffect(() => controller.detach, [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  return {
    messages: state.messages,
    status: state.status,
    isLoading: isBusy(state.status),
    streamingText: state.streamingText,
    streamingReasoning: state.streamingReasoning,
    statusText: state.statusText,
    activeToolProgress: state.activeToolProgress,
    liveTools: state.liveTools,
    liveParts: state.liveParts,
    error: state.error?.message ?? null,
    chatError: state.error,
    conversationId: state.conversationId,
    runId: state.runId,
    hasOlder: state.older !== null,
    controller,
    send: controller.send,
    sendDraft: controller.sendDraft,
    stop: controller.stop,
    retry: controller.retry,
    loadConversation: controller.loadConversation,
    loadOlder: controller.loadOlder,
    newConversation: controller.newConversation,
    runServerAction: controller.runServerAction,
    runAction: controller.runAction,
    decidePayload: controller.decidePayload,
    decideApproval: controller.decideApproval,
  };
}
