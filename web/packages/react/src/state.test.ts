import { describe, expect, it } from "vitest";
import { finalText, liveEvents, stored, storedConversation, toolEntry } from "../test/fixtures";
import { chatReducer, emptyMessage, initialChatState, type ChatAction, type ChatState } from "./state";
import type { ChatMessage, StreamEvent } from "./types";

const reduce = (actions: ChatAction[], state: ChatState = initialChatState) => actions.reduce(chatReducer, state);
const events = (list: StreamEvent[], firstId = 1): ChatAction[] =>
  list.map((event, i) => ({ type: "event", event, id: firstId + i }));

const user = emptyMessage("u1", "user", "Find CRISPR papers");
const sent = reduce([
  { type: "send", message: user },
  { type: "run_started", runId: "r1", conversationId: "c1" },
]);

function byType<T extends StreamEvent["type"]>(type: T): Extract<StreamEvent, { type: T }> {
  const found = liveEvents.find((e) => e.type === type);
  if (!found) throw new Error(type);
  return found as Extract<StreamEvent, { type: T }>;
}

describe("chatReducer: sending", () => {
  it("adds the user message and waits for the answer", () => {
    const state = reduce([{ type: "send", message: user }]);
    expect(state.messages).toEqual([user]);
    expect(state.status).toBe("submitted");
  });

  it("takes the run and conversation from the stream's headers", () => {
    expect(sent.runId).toBe("r1");
    expect(sent.conversationId).toBe("c1");
  });
});

describe("chatReducer: each stream event", () => {
  it("status shows the status text and means the answer is streaming", () => {
    const state = reduce(events([{ type: "status", message: "Thinking..." }]), sent);
    expect(state.statusText).toBe("Thinking...");
    expect(state.status).toBe("streaming");
    expect(state.lastEventId).toBe(1);
  });

  it("text_delta appends to the streaming text and clears the status text", () => {
    const state = reduce(events(liveEvents.slice(0, 3)), sent);
    expect(state.streamingText).toBe("Let me search.");
    expect(state.statusText).toBeNull();
    expect(state.lastEventId).toBe(3);
  });

  it("reasoning streams apart from the answer's text and ends with the answer", () => {
    const thinking: StreamEvent[] = [
      { type: "status", message: "Thinking..." },
      { type: "reasoning", text: "The user wants " },
      { type: "reasoning", text: "CRISPR papers." },
      { type: "text_delta", text: "Here." },
    ];
    const state = reduce(events(thinking), sent);
    expect(state.streamingReasoning).toBe("The user wants CRISPR papers.");
    expect(state.streamingText).toBe("Here.");
    expect(state.statusText).toBeNull();
    const done = reduce(events([byType("complete")], 5), state);
    expect(done.streamingReasoning).toBe("");
  });

  it("tool_start shows the tool card and tool_progress updates its stage and fraction", () => {
    const state = reduce(events(liveEvents.slice(0, 6)), sent);
    expect(state.activeToolProgress).toMatchObject({
      toolName: "search_pubmed",
      toolUseId: "toolu_1",
      input: { query: "CRISPR" },
      stage: "fetching",
      message: "Fetched 3 of 5",
      progress: 0.6,
    });
    expect(state.activeToolProgress?.updates).toHaveLength(2);
    expect(state.liveTools).toEqual([
      { tool_name: "search_pubmed", input: { query: "CRISPR" }, tool_use_id: "toolu_1", is_error: false, output: "", payload: null, done: false, sources: [] },
    ]);
  });

  it("a progress without a fraction keeps the last known one", () => {
    const state = reduce(
      events([
        byType("tool_start"),
        { type: "tool_progress", tool: "search_pubmed", stage: "a", message: "half", progress: 0.5, data: null },
        { type: "tool_progress", tool: "search_pubmed", stage: "b", message: "", progress: null, data: null },
      ]),
      sent,
    );
    expect(state.activeToolProgress?.progress).toBe(0.5);
    expect(state.activeToolProgress?.message).toBe("half");
    expect(state.activeToolProgress?.stage).toBe("b");
  });

  it("the tool card stays visible while text streams", () => {
    const state = reduce(events([byType("tool_start"), { type: "text_delta", text: "meanwhile" }]), sent);
    expect(state.activeToolProgress?.toolName).toBe("search_pubmed");
    expect(state.streamingText).toBe("meanwhile");
  });

  it("tool_complete ends the tool card and indexes the call for its [[tool:N]] marker", () => {
    const state = reduce(events(liveEvents.slice(0, 8)), sent);
    expect(state.activeToolProgress).toBeNull();
    expect(state.liveTools).toEqual([
      { tool_name: "search_pubmed", input: { query: "CRISPR" }, tool_use_id: "toolu_1", is_error: false, output: "Found 5 articles: ...", payload: null, done: true, sources: [] },
    ]);
    expect(state.streamingText).toBe("Let me search.[[tool:0]]");
  });

  it("tool_complete carries a tool's failure", () => {
    const state = reduce(
      events([byType("tool_start"), { type: "tool_complete", tool: "search_pubmed", index: 0, is_error: true, output: "PubMed is unreachable", payload: null, approval: null, usage: null, changes: null, sources: null }]),
      sent,
    );
    expect(state.liveTools[0]?.is_error).toBe(true);
  });

  it("complete turns the turn into the final message, with every field of its payload", () => {
    const state = reduce(events(liveEvents), sent);
    expect(state.status).toBe("ready");
    expect(state.streamingText).toBe("");
    expect(state.statusText).toBeNull();
    expect(state.activeToolProgress).toBeNull();
    expect(state.runId).toBeNull();
    expect(state.conversationId).toBe("c1");
    expect(state.messages).toHaveLength(2);
    expect(state.messages[1]).toEqual<ChatMessage>({
      id: "m2",
      role: "assistant",
      content: finalText,
      status: "complete",
      suggested_values: [{ label: "More", value: "Show me more" }],
      suggested_actions: [{ label: "Close", action: "close_chat", handler: "client", data: null, style: "secondary" }],
      custom_payload: { type: "tool_history", data: [toolEntry] },
      payloads: [],
      tool_history: [toolEntry],
      error: null,
      warnings: [],
      run_id: "r1",
      payload_decision: null,
      stop_reason: "end_turn",
      reasoning: null,
      sources: [],
      approval: null,
      created_at: expect.any(String) as string,
      sibling_count: 1,
      sibling_position: 1,
      feedback: null,
      attachments: [],
    });
  });

  it("error keeps the partial text in an error message that can be retried", () => {
    const state = reduce(
      events([...liveEvents.slice(0, 8), { type: "error", message: "The model is overloaded.", code: "overloaded" }]),
      sent,
    );
    expect(state.status).toBe("error");
    expect(state.error).toEqual({ message: "The model is overloaded.", retry: "resend", inMessage: true });
    const last = state.messages.at(-1);
    expect(last).toMatchObject({
      role: "assistant",
      status: "error",
      error: "The model is overloaded.",
      content: "Let me search.[[tool:0]]",
    });
    expect(last?.tool_history.map((t) => t.tool_name)).toEqual(["search_pubmed"]);
  });

  it("cancelled keeps the partial text as a stopped message", () => {
    const state = reduce(events([...liveEvents.slice(0, 3), { type: "cancelled" }]), sent);
    expect(state.status).toBe("ready");
    expect(state.error).toBeNull();
    expect(state.messages.at(-1)).toMatchObject({ role: "assistant", status: "cancelled", content: "Let me search." });
  });

  it("a card and chips the model wrote show as they come, and a Stop keeps them", () => {
    // Regression: they came only with `complete`, so a stopped answer lost them (and its
    // reload, which now stores them, would have shown more than the live one).
    const card = { type: "proposal", data: { name: "x" } };
    const value = { label: "Yes", value: "yes" };
    const parts: StreamEvent = { type: "reply_parts", payloads: [card], suggested_values: [value], suggested_actions: [], warnings: [] };
    const live = reduce(events([...liveEvents.slice(0, 3), parts]), sent);
    expect(live.liveParts).toEqual({ payloads: [card], suggested_values: [value], suggested_actions: [], warnings: [] });
    const stopped = reduce(events([{ type: "cancelled" }], 5), live);
    expect(stopped.messages.at(-1)).toMatchObject({ status: "cancelled", payloads: [card], suggested_values: [value] });
    expect(stopped.liveParts.payloads).toEqual([]);
  });

  it("events after the end of a turn are ignored", () => {
    const done = reduce(events(liveEvents), sent);
    expect(reduce(events([{ type: "text_delta", text: "late" }, { type: "cancelled" }]), done)).toBe(done);
  });
});

describe("chatReducer: connection trouble", () => {
  it("a dropped connection that cannot be resumed keeps the partial text and offers to resume", () => {
    const state = reduce(
      [...events(liveEvents.slice(0, 3)), { type: "reconnecting" }, { type: "connection_failed", message: "lost", canResume: true }],
      sent,
    );
    expect(state.status).toBe("error");
    expect(state.streamingText).toBe("Let me search.");
    expect(state.lastEventId).toBe(3);
    expect(state.error).toEqual({ message: "lost", retry: "resume", inMessage: false });
    const resumed = reduce([{ type: "resume" }, ...events(liveEvents.slice(3), 4)], state);
    expect(resumed.messages.at(-1)?.content).toBe(finalText);
  });

  it("a request the server refused offers to send it again", () => {
    const state = reduce([{ type: "send", message: user }, { type: "request_failed", message: "busy", retry: "resend" }]);
    expect(state.status).toBe("error");
    expect(state.error).toEqual({ message: "busy", retry: "resend", inMessage: false });
  });

  it("a local stop keeps the partial text as stopped", () => {
    const state = reduce([...events(liveEvents.slice(0, 2)), { type: "stopped_locally" }], sent);
    expect(state.messages.at(-1)).toMatchObject({ status: "cancelled", content: "Let me " });
    expect(state.status).toBe("ready");
  });
});

describe("chatReducer: stored conversations", () => {
  // Ids and times are the server's: the live turn's are its own until it is read back.
  const withoutIds = (messages: ChatMessage[]) => messages.map((m) => ({ ...m, id: "", run_id: null, created_at: null }));
  const withoutTime = (message: ChatMessage | undefined) => ({ ...message, created_at: null });

  it("a stored conversation loads into exactly the messages the live stream produced", () => {
    const live = reduce(events(liveEvents), sent);
    const loaded = reduce([{ type: "load", conversation: storedConversation }]);
    expect(withoutTime(loaded.messages[1])).toEqual(withoutTime(live.messages[1]));
    expect(withoutIds(loaded.messages)).toEqual(withoutIds(live.messages));
    expect(loaded.conversationId).toBe("c1");
    expect(loaded.status).toBe("ready");
  });

  it("a stored running turn is replayed from its first event, ending like the live one", () => {
    const running = {
      ...storedConversation,
      messages: [
        ...storedConversation.messages.slice(0, 1),
        stored({ id: "m2", role: "assistant", content: "Let me", status: "running", run_id: "r1" }),
      ],
    };
    const loaded = reduce([{ type: "load", conversation: running }]);
    expect(loaded.status).toBe("reconnecting");
    expect(loaded.runId).toBe("r1");
    expect(loaded.messages).toHaveLength(1);
    const midway = reduce(events(liveEvents.slice(0, 5)), loaded);
    expect(midway.streamingText).toBe("Let me search.");
    expect(midway.activeToolProgress?.toolName).toBe("search_pubmed");
    const replayed = reduce(events(liveEvents.slice(5), 6), midway);
    const live = reduce(events(liveEvents), sent);
    // Both were folded by this client, a moment apart: only the clock they were stamped with differs.
    expect(withoutTime(replayed.messages[1])).toEqual(withoutTime(live.messages[1]));
  });

  it("a running turn whose run is gone shows as interrupted", () => {
    const running = {
      ...storedConversation,
      messages: [stored({ id: "m2", role: "assistant", content: "Partial", status: "running", run_id: "r9" })],
    };
    const state = reduce([{ type: "load", conversation: running }, { type: "resume_failed", message: "Run not found" }]);
    expect(state.messages).toEqual([expect.objectContaining({ content: "Partial", status: "interrupted" })]);
    expect(state.status).toBe("ready");
  });

  it("stored null suggestions become empty lists, as live ones", () => {
    const loaded = reduce([{ type: "load", conversation: storedConversation }]);
    expect(loaded.messages[0]?.suggested_values).toEqual([]);
    expect(loaded.messages[0]?.suggested_actions).toEqual([]);
  });

  it("reset forgets everything", () => {
    expect(reduce([{ type: "reset" }], reduce(events(liveEvents), sent))).toEqual(initialChatState);
  });

  it("approval_requested ends the turn with an answer that waits for the user's decision", () => {
    const state = reduce(
      events([
        { type: "text_delta", text: "I will delete it." },
        {
          type: "approval_requested",
          approval_id: "a1",
          tool: "delete_report",
          input: { report_id: 7 },
          reason: "Deletes the report.",
          tool_use_id: "toolu_1",
          expires_at: null,
          conversation_id: "c1",
          message_id: "m2",
        },
      ]),
      sent,
    );
    expect(state.status).toBe("ready");
    expect(state.runId).toBeNull();
    expect(state.streamingText).toBe("");
    const waiting = state.messages[1];
    expect(waiting?.id).toBe("m2");
    expect(waiting?.status).toBe("needs_approval");
    expect(waiting?.content).toBe("I will delete it.");
    expect(waiting?.approval).toEqual({
      id: "a1",
      kind: "approval",
      tool: "delete_report",
      tool_use_id: "toolu_1",
      input: { report_id: 7 },
      reason: "Deletes the report.",
      status: "pending",
      note: null,
      expires_at: null,
    });
  });

  it("a stored answer that waits for approval loads with its request", () => {
    const approval = { id: "a1", kind: "approval" as const, tool: "delete_report", tool_use_id: null, input: {}, reason: "", status: "pending" as const, note: null, expires_at: null };
    const conversation = {
      ...storedConversation,
      messages: [stored({ id: "m2", role: "assistant", content: "", status: "needs_approval", approval })],
    };
    const state = reduce([{ type: "load", conversation }]);
    expect(state.status).toBe("ready");
    expect(state.messages[0]?.approval).toEqual(approval);
  });
});
