// The chat's state and its pure reducer. The same reducer folds live stream events and
// loads stored conversations, so a stored message renders exactly like the live one.
import type {
  ActiveToolProgress,
  ChatError,
  ChatMessage,
  ChatResponsePayload,
  ChatStatus,
  ConversationDetail,
  CustomPayload,
  MessagePublic,
  PayloadDecision,
  Source,
  StreamEvent,
  SuggestedAction,
  SuggestedValue,
  ToolHistoryEntry,
} from "./types";

/** A tool call of the running turn, as far as the stream has told. */
export interface LiveTool {
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id: string | null;
  is_error: boolean;
  output: string;
  /** The card its `tool_complete` carried (stored with the answer). */
  payload: CustomPayload | null;
  done: boolean;
  /** The call's sources, numbered in the answer (from its `tool_complete`). */
  sources: Source[];
}

/** What the model wrote in the running turn besides its text (`reply_parts`), so far. */
export interface LiveParts {
  payloads: CustomPayload[];
  suggested_values: SuggestedValue[];
  suggested_actions: SuggestedAction[];
  warnings: string[];
}

export const NO_PARTS: LiveParts = { payloads: [], suggested_values: [], suggested_actions: [], warnings: [] };

export interface ChatState {
  conversationId: string | null;
  messages: ChatMessage[];
  status: ChatStatus;
  /** The run being streamed (or to resume); null when none. */
  runId: string | null;
  /** The last SSE `id:` seen for `runId` (0 = none); resumption starts after it. */
  lastEventId: number;
  streamingText: string;
  /** The model's reasoning streamed so far in this run (shown apart from the answer). */
  streamingReasoning: string;
  statusText: string | null;
  activeToolProgress: ActiveToolProgress | null;
  /** Tool calls of the running turn by `[[tool:N]]` index: started (not yet indexed) ones trail. */
  liveTools: LiveTool[];
  /** The model's cards, chips and actions of the running turn, shown as they came. */
  liveParts: LiveParts;
  error: ChatError | null;
  /** A stored `running` message being resumed; shown as it was stored if the resume fails. */
  resumeFallback: ChatMessage | null;
  /** Cursor of the stored messages before the first one shown; null when all are shown. */
  older: string | null;
}

export type ChatAction =
  | { type: "send"; message: ChatMessage }
  | { type: "run_started"; runId: string; conversationId: string | null }
  | { type: "event"; event: StreamEvent; id: number | null }
  | { type: "reconnecting" }
  /** Resume `runId` after `lastEventId` (kept) — after a connection error, on Retry. */
  | { type: "resume" }
  | { type: "connection_failed"; message: string; canResume: boolean }
  | { type: "request_failed"; message: string; retry: "resend" | "none" }
  /** Stopped without the server's `cancelled` (it could not be reached): keep the partial answer. */
  | { type: "stopped_locally" }
  | { type: "load"; conversation: ConversationDetail }
  /** An earlier page of the conversation shown, put before its messages. */
  | { type: "prepend"; conversation: ConversationDetail }
  | { type: "resume_failed"; message: string }
  | { type: "reset" }
  | { type: "append"; message: ChatMessage }
  | { type: "remove"; id: string }
  /** The user accepted, rejected or closed a message's card (as the server records it). */
  | { type: "decide"; id: string; decision: PayloadDecision }
  /**
   * A branch starts at message `cut` (regenerate, edit and resend, continue): it and what
   * follows leave the view; `message` (an edited question) is appended; `resume` (an answer
   * being continued) is where the streaming text starts.
   */
  | { type: "branch"; cut: string; message: ChatMessage | null; resume: ChatMessage | null }
  /** The stored path, as the server has it now (after a branch, or to learn stored ids). */
  | { type: "sync"; conversation: ConversationDetail }
  | { type: "feedback"; id: string; feedback: ChatMessage["feedback"] };

export const initialChatState: ChatState = {
  conversationId: null,
  messages: [],
  status: "ready",
  runId: null,
  lastEventId: 0,
  streamingText: "",
  streamingReasoning: "",
  statusText: null,
  activeToolProgress: null,
  liveTools: [],
  liveParts: NO_PARTS,
  error: null,
  resumeFallback: null,
  older: null,
};

export function isBusy(status: ChatStatus): boolean {
  return status === "submitted" || status === "streaming" || status === "reconnecting";
}

export function messageFromStored(m: MessagePublic): ChatMessage {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    status: m.status,
    suggested_values: m.suggested_values ?? [],
    suggested_actions: m.suggested_actions ?? [],
    custom_payload: m.custom_payload,
    payloads: m.payloads,
    tool_history: m.tool_history,
    error: m.error,
    warnings: m.warnings,
    run_id: m.run_id,
    payload_decision: m.payload_decision,
    stop_reason: m.stop_reason,
    reasoning: m.reasoning,
    sources: m.sources,
    approval: m.approval,
    created_at: m.created_at,
    sibling_count: m.sibling_count,
    sibling_position: m.sibling_position,
    feedback: m.feedback,
    attachments: m.attachments,
  };
}

export function messageFromPayload(p: ChatResponsePayload, fallbackId: string, runId: string | null): ChatMessage {
  return {
    id: p.message_id ?? fallbackId,
    role: "assistant",
    content: p.message,
    status: "complete",
    suggested_values: p.suggested_values ?? [],
    suggested_actions: p.suggested_actions ?? [],
    custom_payload: p.custom_payload,
    payloads: p.payloads,
    tool_history: p.tool_history,
    error: null,
    warnings: p.warnings,
    run_id: runId,
    payload_decision: null,
    stop_reason: p.stop_reason,
    reasoning: p.reasoning,
    sources: p.sources,
    approval: null,
    created_at: new Date().toISOString(),
    sibling_count: 1,
    sibling_position: 1,
    feedback: null,
    attachments: [],
  };
}

export function emptyMessage(id: string, role: ChatMessage["role"], content: string): ChatMessage {
  return {
    id,
    role,
    content,
    status: "complete",
    suggested_values: [],
    suggested_actions: [],
    custom_payload: null,
    payloads: [],
    tool_history: [],
    error: null,
    warnings: [],
    run_id: null,
    payload_decision: null,
    stop_reason: null,
    reasoning: null,
    sources: [],
    approval: null,
    created_at: new Date().toISOString(),
    sibling_count: 1,
    sibling_position: 1,
    feedback: null,
    attachments: [],
  };
}

/** The tool calls the stream has shown so far, as the stored message will hold them. */
export function liveToolHistory(tools: LiveTool[]): ToolHistoryEntry[] {
  return tools.map((t) => ({
    tool_name: t.tool_name,
    input: t.input,
    output: t.output,
    is_error: t.is_error,
    tool_use_id: t.tool_use_id,
    payload: t.payload,
    approval: null,
    in_answer: false,
    sources: t.sources,
  }));
}

/** The running answer's sources so far: every completed call's, once each, by number. */
export function liveSources(tools: LiveTool[]): Source[] {
  const byNumber = new Map<number, Source>();
  for (const tool of tools) {
    for (const source of tool.sources) {
      if (source.number !== null && !byNumber.has(source.number)) byNumber.set(source.number, source);
    }
  }
  return [...byNumber.entries()].sort(([a], [b]) => a - b).map(([, source]) => source);
}

/**
 * The running turn's cards (its tools', then the model's), chips, actions and warnings, as
 * the stored answer will hold them: a stopped or taken-over answer keeps what was shown.
 */
export function liveExtras(tools: LiveTool[], parts: LiveParts): Pick<ChatMessage, "payloads" | "suggested_values" | "suggested_actions" | "warnings"> {
  const fromTools = tools.flatMap((t) => (t.done && t.payload !== null ? [t.payload] : []));
  return {
    payloads: [...fromTools, ...parts.payloads],
    suggested_values: parts.suggested_values,
    suggested_actions: parts.suggested_actions,
    warnings: parts.warnings,
  };
}

const streamingReset = {
  streamingText: "",
  streamingReasoning: "",
  statusText: null,
  activeToolProgress: null,
  liveTools: [],
  liveParts: NO_PARTS,
} satisfies Partial<ChatState>;

/** The partial answer of the running turn, ended with `status` (what a stop or an error leaves). */
function partialMessage(state: ChatState, status: "cancelled" | "error", error: string | null): ChatMessage {
  const tools = state.liveTools.filter((t) => t.done);
  return {
    ...emptyMessage(`partial-${state.runId ?? String(state.messages.length)}`, "assistant", state.streamingText),
    ...liveExtras(tools, state.liveParts),
    status,
    error,
    tool_history: liveToolHistory(tools),
    sources: liveSources(tools),
    run_id: state.runId,
  };
}

/** A stored answer's cards, chips and actions the model wrote (after its tools' cards). */
function writtenParts(m: ChatMessage): LiveParts {
  const fromTools = m.tool_history.filter((t) => t.payload !== null).length;
  return {
    payloads: m.payloads.slice(fromTools),
    suggested_values: m.suggested_values,
    suggested_actions: m.suggested_actions,
    warnings: [],
  };
}

function applyEvent(state: ChatState, event: StreamEvent): ChatState {
  switch (event.type) {
    case "status":
      return { ...state, statusText: event.message };
    case "text_delta":
      return { ...state, statusText: null, streamingText: state.streamingText + event.text };
    case "reasoning":
      return { ...state, statusText: null, streamingReasoning: state.streamingReasoning + event.text };
    case "tool_start":
      return {
        ...state,
        statusText: null,
        activeToolProgress: {
          toolName: event.tool,
          toolUseId: event.tool_use_id,
          input: event.input,
          stage: "",
          message: "",
          progress: null,
          updates: [],
        },
        liveTools: [
          ...state.liveTools,
          { tool_name: event.tool, input: event.input, tool_use_id: event.tool_use_id, is_error: false, output: "", payload: null, done: false, sources: [] },
        ],
      };
    case "tool_progress": {
      const current = state.activeToolProgress;
      const base: ActiveToolProgress =
        current && current.toolName === event.tool
          ? current
          : { toolName: event.tool, toolUseId: "", input: {}, stage: "", message: "", progress: null, updates: [] };
      return {
        ...state,
        statusText: null,
        activeToolProgress: {
          ...base,
          stage: event.stage,
          message: event.message || base.message,
          progress: event.progress ?? base.progress,
          updates: [...base.updates, event],
        },
      };
    }
    case "tool_complete": {
      // Tools run one after another, so the call completing is the oldest started one of that name.
      const done = state.liveTools.filter((t) => t.done);
      const pending = state.liveTools.filter((t) => !t.done);
      const at = pending.findIndex((t) => t.tool_name === event.tool);
      const started = at === -1 ? undefined : pending[at];
      const rest = at === -1 ? pending : pending.filter((_, i) => i !== at);
      const entry: LiveTool = {
        tool_name: event.tool,
        input: started?.input ?? {},
        tool_use_id: started?.tool_use_id ?? null,
        is_error: event.is_error,
        output: event.output ?? "",
        payload: event.payload ?? null,
        done: true,
        sources: event.sources ?? [],
      };
      const indexed = [...done];
      // The server's index is the number of calls completed before this one. Any other index
      // (negative, fractional, past the calls seen) takes the next place: the list must never
      // grow to whatever number a confused stream names.
      const valid = Number.isInteger(event.index) && event.index >= 0 && event.index <= done.length;
      indexed[valid ? event.index : done.length] = entry;
      return {
        ...state,
        activeToolProgress: state.activeToolProgress?.toolName === event.tool ? null : state.activeToolProgress,
        liveTools: [...indexed, ...rest],
      };
    }
    case "reply_parts": {
      const parts = state.liveParts;
      return {
        ...state,
        liveParts: {
          payloads: [...parts.payloads, ...event.payloads],
          suggested_values: [...parts.suggested_values, ...event.suggested_values],
          suggested_actions: [...parts.suggested_actions, ...event.suggested_actions],
          warnings: [...parts.warnings, ...event.warnings],
        },
      };
    }
    case "complete": {
      const message = messageFromPayload(event.payload, `assistant-${String(state.messages.length)}`, state.runId);
      return {
        ...state,
        ...streamingReset,
        conversationId: event.payload.conversation_id ?? state.conversationId,
        messages: [...state.messages, message],
        status: "ready",
        runId: null,
        error: null,
        resumeFallback: null,
      };
    }
    case "error":
      return {
        ...state,
        ...streamingReset,
        messages: [...state.messages, partialMessage(state, "error", event.message)],
        status: "error",
        runId: null,
        error: { message: event.message, retry: "resend", inMessage: true },
        resumeFallback: null,
      };
    case "approval_requested": {
      // The run ends here; the decision resumes the turn in a new run (ChatController.decideApproval).
      const waiting: ChatMessage = {
        ...partialMessage(state, "cancelled", null),
        id: event.message_id ?? `approval-${event.approval_id}`,
        status: "needs_approval",
        approval: {
          id: event.approval_id,
          kind: "approval",
          tool: event.tool,
          tool_use_id: event.tool_use_id,
          input: event.input,
          reason: event.reason,
          status: "pending",
          note: null,
          expires_at: event.expires_at,
        },
      };
      return {
        ...state,
        ...streamingReset,
        conversationId: event.conversation_id ?? state.conversationId,
        messages: [...state.messages, waiting],
        status: "ready",
        runId: null,
        error: null,
        resumeFallback: null,
      };
    }
    case "approval_resolved":
      return state;
    case "cancelled":
      return {
        ...state,
        ...streamingReset,
        messages: [...state.messages, partialMessage(state, "cancelled", null)],
        status: "ready",
        runId: null,
        error: null,
        resumeFallback: null,
      };
  }
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "send":
      return {
        ...state,
        ...streamingReset,
        messages: [...state.messages, action.message],
        status: "submitted",
        runId: null,
        lastEventId: 0,
        error: null,
        resumeFallback: null,
      };
    case "run_started":
      return { ...state, runId: action.runId, conversationId: action.conversationId ?? state.conversationId };
    case "event": {
      // Events only belong to a turn in flight; a late duplicate after the end is ignored.
      if (!isBusy(state.status)) return state;
      const next = applyEvent(state, action.event);
      return {
        ...next,
        status: isBusy(next.status) ? "streaming" : next.status,
        lastEventId: action.id ?? state.lastEventId,
      };
    }
    case "reconnecting":
      return isBusy(state.status) ? { ...state, status: "reconnecting" } : state;
    case "resume":
      return state.runId === null ? state : { ...state, status: "reconnecting", error: null };
    case "connection_failed":
      return {
        ...state,
        status: "error",
        error: { message: action.message, retry: action.canResume ? "resume" : "resend", inMessage: false },
      };
    case "request_failed":
      return {
        ...state,
        ...streamingReset,
        status: "error",
        runId: null,
        error: { message: action.message, retry: action.retry, inMessage: false },
      };
    case "stopped_locally":
      if (!isBusy(state.status) && state.error?.retry !== "resume") return state;
      return {
        ...state,
        ...streamingReset,
        messages: [...state.messages, partialMessage(state, "cancelled", null)],
        status: "ready",
        runId: null,
        error: null,
        resumeFallback: null,
      };
    case "load": {
      const stored = action.conversation.messages.map(messageFromStored);
      const last = stored.at(-1);
      const running = last?.role === "assistant" && last.status === "running" && last.run_id !== null ? last : null;
      return {
        ...initialChatState,
        conversationId: action.conversation.id,
        messages: running ? stored.slice(0, -1) : stored,
        // A running turn is replayed from its first event, exactly as it streamed.
        status: running ? "reconnecting" : "ready",
        runId: running?.run_id ?? null,
        resumeFallback: running,
        older: action.conversation.older ?? null,
      };
    }
    case "prepend": {
      if (action.conversation.id !== state.conversationId) return state;
      const known = new Set(state.messages.map((m) => m.id));
      const earlier = action.conversation.messages.map(messageFromStored).filter((m) => !known.has(m.id));
      return { ...state, messages: [...earlier, ...state.messages], older: action.conversation.older ?? null };
    }
    case "resume_failed": {
      const fallback = state.resumeFallback;
      if (fallback === null) {
        return { ...state, ...streamingReset, status: "error", runId: null, error: { message: action.message, retry: "none", inMessage: false } };
      }
      return {
        ...state,
        ...streamingReset,
        messages: [...state.messages, { ...fallback, status: "interrupted" }],
        status: "ready",
        runId: null,
        resumeFallback: null,
      };
    }
    case "reset":
      return initialChatState;
    case "append":
      return { ...state, messages: [...state.messages, action.message] };
    case "remove":
      return { ...state, messages: state.messages.filter((m) => m.id !== action.id) };
    case "branch": {
      const at = state.messages.findIndex((m) => m.id === action.cut);
      if (at === -1 || isBusy(state.status)) return state;
      const resume = action.resume;
      return {
        ...state,
        ...streamingReset,
        messages: [...state.messages.slice(0, at), ...(action.message ? [action.message] : [])],
        streamingText: resume?.content ?? "",
        liveTools: (resume?.tool_history ?? []).map((t) => ({
          tool_name: t.tool_name,
          input: t.input,
          tool_use_id: t.tool_use_id,
          is_error: t.is_error,
          output: t.output,
          payload: t.payload,
          done: true,
          sources: t.sources,
        })),
        liveParts: resume === null ? NO_PARTS : writtenParts(resume),
        status: "submitted",
        runId: null,
        lastEventId: 0,
        error: null,
        resumeFallback: null,
      };
    }
    case "sync": {
      if (action.conversation.id !== state.conversationId || isBusy(state.status)) return state;
      const stored = action.conversation.messages.map(messageFromStored);
      // Earlier pages already shown stay, up to where the stored page starts.
      const first = stored[0]?.id;
      const at = first === undefined ? -1 : state.messages.findIndex((m) => m.id === first);
      const kept = at > 0 ? state.messages.slice(0, at) : [];
      return {
        ...state,
        messages: [...kept, ...stored],
        older: at > 0 ? state.older : (action.conversation.older ?? null),
      };
    }
    case "feedback":
      return {
        ...state,
        messages: state.messages.map((m) => (m.id === action.id ? { ...m, feedback: action.feedback } : m)),
      };
    case "decide": {
      const messages = state.messages.map((m) => (m.id === action.id ? withDecision(m, action.decision) : m));
      return messages.every((m, i) => m === state.messages[i]) ? state : { ...state, messages };
    }
  }
}

/** Closing a card never undoes an accept or reject made in it (the server's rule too). */
export function withDecision(message: ChatMessage, decision: PayloadDecision): ChatMessage {
  const kept = decision === "dismissed" && (message.payload_decision === "accepted" || message.payload_decision === "rejected");
  return kept || message.payload_decision === decision ? message : { ...message, payload_decision: decision };
}
