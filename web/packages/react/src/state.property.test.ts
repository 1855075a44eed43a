// Property tests of the reducer: arbitrary event orders never break it, and a turn folded
// live, replayed from its first event, resumed after a drop or loaded from storage shows
// the same thing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stored } from "../test/fixtures";
import {
  chatReducer,
  emptyMessage,
  initialChatState,
  isBusy,
  liveToolHistory,
  type ChatAction,
  type ChatState,
} from "./state";
import type {
  ChatMessage,
  ChatResponsePayload,
  ConversationDetail,
  CustomPayload,
  MessagePublic,
  StreamEvent,
  SuggestedAction,
  SuggestedValue,
  ToolHistoryEntry,
} from "./types";

const RUNS = 300;

// --- arbitraries built from the generated protocol types -------------------------------

/** Short strings from a small pool (so names and ids collide) or anything at all. */
const name = fc.oneof(fc.constantFrom("search", "fetch", "search ", ""), fc.string({ maxLength: 8 }));
const toolUseId = fc.oneof(fc.constantFrom("toolu_1", "toolu_2", ""), fc.string({ maxLength: 8 }));
const anyText = fc.oneof(
  fc.string({ maxLength: 30, unit: "binary" }),
  fc.constantFrom("[[tool:0]]", "[[tool:1]]", "[[tool:9]]", "```choices\n", "\n\n", "**"),
);
const input = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const payload: fc.Arbitrary<CustomPayload> = fc.record({ type: name, data: fc.jsonValue({ maxDepth: 2 }) });
const nullablePayload = fc.option(payload, { nil: null });

const historyEntry: fc.Arbitrary<ToolHistoryEntry> = fc.record({
  tool_name: name,
  input,
  output: anyText,
  is_error: fc.boolean(),
  tool_use_id: fc.option(toolUseId, { nil: null }),
  payload: nullablePayload,
  approval: fc.constant(null),
  in_answer: fc.constant(false),
  sources: fc.constant([]),
});

const suggestedValue: fc.Arbitrary<SuggestedValue> = fc.record({ label: anyText, value: anyText });
const suggestedAction: fc.Arbitrary<SuggestedAction> = fc.record({
  label: anyText,
  action: name,
  handler: fc.constantFrom("client" as const, "server" as const),
  data: fc.option(input, { nil: null }),
  style: fc.constantFrom("primary" as const, "secondary" as const, "warning" as const, null),
});

const responsePayload: fc.Arbitrary<ChatResponsePayload> = fc.record({
  message: anyText,
  reasoning: fc.option(fc.record({ text: anyText, seconds: fc.double({ min: 0, max: 600, noNaN: true }) }), { nil: null }),
  suggested_values: fc.option(fc.array(suggestedValue, { maxLength: 3 }), { nil: null }),
  suggested_actions: fc.option(fc.array(suggestedAction, { maxLength: 3 }), { nil: null }),
  custom_payload: nullablePayload,
  payloads: fc.array(payload, { maxLength: 2 }),
  tool_history: fc.array(historyEntry, { maxLength: 3 }),
  conversation_id: fc.option(fc.constantFrom("c1", "c2"), { nil: null }),
  message_id: fc.option(fc.constantFrom("m1", "m2", "m3"), { nil: null }),
  usage: fc.option(
    fc.record({
      input_tokens: fc.nat(),
      output_tokens: fc.nat(),
      cache_read_tokens: fc.nat(),
      cache_write_tokens: fc.nat(),
    }),
    { nil: null },
  ),
  warnings: fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }),
  stop_reason: fc.constantFrom(null, "end_turn", "max_tokens"),
  sources: fc.constant([]),
});

/** Any stream event, of every type the wire contract has, with any field values. */
const streamEvent: fc.Arbitrary<StreamEvent> = fc.oneof(
  fc.record({ type: fc.constant("status" as const), message: anyText }),
  fc.record({ type: fc.constant("text_delta" as const), text: anyText }),
  fc.record({ type: fc.constant("tool_start" as const), tool: name, input, tool_use_id: toolUseId }),
  fc.record({
    type: fc.constant("tool_progress" as const),
    tool: name,
    stage: fc.string({ maxLength: 6 }),
    message: anyText,
    progress: fc.option(fc.double({ noNaN: false }), { nil: null }),
    data: fc.jsonValue({ maxDepth: 1 }),
  }),
  fc.record({
    type: fc.constant("tool_complete" as const),
    tool: name,
    // In range, out of range, negative, fractional, huge: a confused server sends anything.
    index: fc.oneof(
      { weight: 6, arbitrary: fc.nat(6) },
      fc.integer(),
      fc.double(),
      fc.constantFrom(-1, 0.5, 40, 2 ** 32 - 2, 1e9, Number.MAX_SAFE_INTEGER),
    ),
    is_error: fc.boolean(),
    output: fc.option(anyText, { nil: null }),
    payload: fc.constant(null),
    approval: fc.constant(null),
    usage: fc.constant(null),
    changes: fc.constant(null),
    sources: fc.constant(null),
  }),
  fc.record({ type: fc.constant("complete" as const), payload: responsePayload }),
  fc.record({ type: fc.constant("error" as const), message: anyText, code: fc.option(fc.string({ maxLength: 8 }), { nil: null }) }),
  fc.record({ type: fc.constant("cancelled" as const) }),
);

const role = fc.constantFrom("user" as const, "assistant" as const, "action" as const);
const status = fc.constantFrom(
  "running" as const,
  "complete" as const,
  "cancelled" as const,
  "error" as const,
  "interrupted" as const,
);

const storedMessage: fc.Arbitrary<MessagePublic> = fc
  .record({
    id: fc.constantFrom("m1", "m2", "m3", "m4"),
    role,
    content: anyText,
    status,
    run_id: fc.option(fc.constantFrom("r1", "r2"), { nil: null }),
    suggested_values: fc.option(fc.array(suggestedValue, { maxLength: 2 }), { nil: null }),
    suggested_actions: fc.option(fc.array(suggestedAction, { maxLength: 2 }), { nil: null }),
    custom_payload: nullablePayload,
    payloads: fc.array(payload, { maxLength: 2 }),
    tool_history: fc.array(historyEntry, { maxLength: 2 }),
    error: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
  })
  .map((m) => stored(m));

const conversation: fc.Arbitrary<ConversationDetail> = fc.record({
  id: fc.constantFrom("c1", "c2"),
  title: fc.string({ maxLength: 8 }),
  created_at: fc.constant("2025-01-01T00:00:00Z"),
  updated_at: fc.constant("2025-01-01T00:00:00Z"),
  active_leaf_id: fc.constant(null),
  messages: fc.array(storedMessage, { maxLength: 4 }),
  older: fc.constant(null),
});

const chatMessage: fc.Arbitrary<ChatMessage> = fc
  .record({ id: fc.constantFrom("u1", "u2", "m1"), role, content: anyText })
  .map(({ id, role: r, content }) => emptyMessage(id, r, content));

/** Every action the store can dispatch, in any order. */
const chatAction: fc.Arbitrary<ChatAction> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ type: fc.constant("event" as const), event: streamEvent, id: fc.option(fc.nat(50), { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("send" as const), message: chatMessage }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("run_started" as const),
      runId: fc.constantFrom("r1", "r2"),
      conversationId: fc.option(fc.constantFrom("c1", "c2"), { nil: null }),
    }),
  },
  fc.constant({ type: "reconnecting" as const }),
  fc.constant({ type: "resume" as const }),
  fc.record({ type: fc.constant("connection_failed" as const), message: fc.string({ maxLength: 8 }), canResume: fc.boolean() }),
  fc.record({
    type: fc.constant("request_failed" as const),
    message: fc.string({ maxLength: 8 }),
    retry: fc.constantFrom("resend" as const, "none" as const),
  }),
  fc.constant({ type: "stopped_locally" as const }),
  fc.record({ type: fc.constant("load" as const), conversation }),
  fc.record({ type: fc.constant("resume_failed" as const), message: fc.string({ maxLength: 8 }) }),
  fc.constant({ type: "reset" as const }),
  fc.record({ type: fc.constant("append" as const), message: chatMessage }),
  fc.record({ type: fc.constant("remove" as const), id: fc.constantFrom("u1", "m1", "m2") }),
);

/** What the tray's renderer relies on, whatever happened before. */
function expectRenderable(state: ChatState): void {
  expect(["ready", "submitted", "streaming", "reconnecting", "error"]).toContain(state.status);
  expect(typeof state.streamingText).toBe("string");
  // Dense: the tray maps over the finished tool calls to show them inline.
  for (let i = 0; i < state.liveTools.length; i++) {
    const tool = state.liveTools[i];
    expect(typeof tool?.tool_name).toBe("string");
    expect(typeof tool?.done).toBe("boolean");
  }
  for (const message of state.messages) {
    expect(Array.isArray(message.suggested_values)).toBe(true);
    expect(Array.isArray(message.suggested_actions)).toBe(true);
    expect(Array.isArray(message.tool_history)).toBe(true);
    expect(typeof message.content).toBe("string");
  }
}

describe("chatReducer on arbitrary action sequences", () => {
  it("never throws, and every state it reaches can be rendered", () => {
    fc.assert(
      fc.property(fc.array(chatAction, { maxLength: 40 }), (actions) => {
        let state = initialChatState;
        for (const action of actions) {
          state = chatReducer(state, action);
          expectRenderable(state);
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("events in any order during a turn (complete before start, completes without starts, duplicate ids) never throw", () => {
    const started: ChatAction[] = [
      { type: "send", message: emptyMessage("u1", "user", "hi") },
      { type: "run_started", runId: "r1", conversationId: "c1" },
    ];
    fc.assert(
      fc.property(fc.array(streamEvent, { maxLength: 30 }), fc.array(fc.nat(5), { maxLength: 30 }), (events, ids) => {
        let state = started.reduce(chatReducer, initialChatState);
        let toolEvents = 0;
        events.forEach((event, i) => {
          if (!isBusy(state.status)) return;
          if (event.type === "tool_start" || event.type === "tool_complete") toolEvents += 1;
          state = chatReducer(state, { type: "event", event, id: ids[i] ?? null });
          expectRenderable(state);
          // One card at most per tool event, whatever index the events name.
          expect(state.liveTools.length).toBeLessThanOrEqual(toolEvents);
        });
      }),
      { numRuns: RUNS * 2 },
    );
  });

  // It used to fill every place up to the index with blank calls: 1e9 ran the tab out of memory.
  it.each([7, 1e9])(
    "regression: a tool_complete whose index (%d) is far past the calls seen does not grow the tool list to that size",
    (index) => {
      const actions = [
        { type: "send", message: emptyMessage("u1", "user", "hi") },
        { type: "event", event: { type: "tool_start", tool: "search", input: {}, tool_use_id: "t1" }, id: 1 },
        { type: "event", event: { type: "tool_complete", tool: "search", index, is_error: false, output: "found", payload: null, approval: null, usage: null, changes: null, sources: null }, id: 2 },
      ] satisfies ChatAction[];
      expect(actions.reduce(chatReducer, initialChatState).liveTools).toEqual([
        { tool_name: "search", input: {}, tool_use_id: "t1", is_error: false, output: "found", payload: null, done: true, sources: [] },
      ]);
    },
  );

  it("an event that arrives when no turn is running changes nothing", () => {
    fc.assert(
      fc.property(fc.array(chatAction, { maxLength: 20 }), streamEvent, (actions, event) => {
        const state = actions.reduce(chatReducer, initialChatState);
        fc.pre(!isBusy(state.status));
        expect(chatReducer(state, { type: "event", event, id: 99 })).toBe(state);
      }),
      { numRuns: RUNS },
    );
  });
});

// --- turns as the server streams them ---------------------------------------------------

/** The model's own text, as the server lets it through: it can never forge `[[tool:N]]`. */
const modelText = anyText.map((t) => t.replace(/\[(?=\[tool:)/g, "[\u200b"));

interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  id: string;
  progress: { stage: string; message: string; progress: number | null }[];
  isError: boolean;
  output: string;
  payload: CustomPayload | null;
}

type Step = { kind: "text"; text: string } | { kind: "status"; message: string } | { kind: "tool"; call: ToolCall };

const toolCall: fc.Arbitrary<ToolCall> = fc.record({
  name,
  input,
  id: toolUseId,
  progress: fc.array(
    fc.record({
      stage: fc.string({ maxLength: 6 }),
      message: fc.string({ maxLength: 10 }),
      progress: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    }),
    { maxLength: 3 },
  ),
  isError: fc.boolean(),
  output: anyText,
  payload: nullablePayload,
});

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: modelText.map((text) => ({ kind: "text" as const, text })) },
  fc.string({ maxLength: 10 }).map((message) => ({ kind: "status" as const, message })),
  { weight: 2, arbitrary: toolCall.map((call) => ({ kind: "tool" as const, call })) },
);

interface Turn {
  events: StreamEvent[];
  payload: ChatResponsePayload;
}

/** The events of one turn as the server emits them, ending with `complete`. */
const turn: fc.Arbitrary<Turn> = fc
  .record({
    steps: fc.array(step, { maxLength: 12 }),
    values: fc.option(fc.array(suggestedValue, { maxLength: 3 }), { nil: null }),
    actions: fc.option(fc.array(suggestedAction, { maxLength: 3 }), { nil: null }),
    modelPayloads: fc.array(payload, { maxLength: 2 }),
    warnings: fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }),
  })
  .map(({ steps, values, actions, modelPayloads, warnings }) => {
    const events: StreamEvent[] = [];
    const history: ToolHistoryEntry[] = [];
    let message = "";
    for (const s of steps) {
      if (s.kind === "text") {
        events.push({ type: "text_delta", text: s.text });
        message += s.text;
      } else if (s.kind === "status") {
        events.push({ type: "status", message: s.message });
      } else {
        const { call } = s;
        const index = history.length;
        events.push({ type: "tool_start", tool: call.name, input: call.input, tool_use_id: call.id });
        for (const p of call.progress) events.push({ type: "tool_progress", tool: call.name, data: null, ...p });
        events.push({ type: "tool_complete", tool: call.name, index, is_error: call.isError, output: call.output, payload: null, approval: null, usage: null, changes: null, sources: null });
        const marker = `[[tool:${String(index)}]]`;
        events.push({ type: "text_delta", text: marker });
        message += marker;
        history.push({
          tool_name: call.name,
          input: call.input,
          output: call.output,
          is_error: call.isError,
          tool_use_id: call.id,
          payload: call.payload,
          approval: null,
          in_answer: false,
          sources: [],
        });
      }
    }
    const toolPayloads = history.flatMap((h) => (h.payload ? [h.payload] : []));
    const payloads = [...toolPayloads, ...modelPayloads];
    const primary: CustomPayload | null =
      toolPayloads.at(-1) ?? modelPayloads[0] ?? (history.length > 0 ? { type: "tool_history", data: history } : null);
    const payload: ChatResponsePayload = {
      message,
      reasoning: null,
      sources: [],
      suggested_values: values,
      suggested_actions: actions,
      custom_payload: primary,
      payloads,
      tool_history: history,
      conversation_id: "c1",
      message_id: "m2",
      usage: { input_tokens: 1, output_tokens: 2, cache_read_tokens: 0, cache_write_tokens: 0 },
      warnings,
      stop_reason: "end_turn",
    };
    events.push({ type: "complete", payload });
    return { events, payload };
  });

const question = "Find CRISPR papers";
const sent = [
  { type: "send", message: emptyMessage("u1", "user", question) },
  { type: "run_started", runId: "r1", conversationId: "c1" },
] satisfies ChatAction[];

const asActions = (events: StreamEvent[], firstId = 1): ChatAction[] =>
  events.map((event, i) => ({ type: "event", event, id: firstId + i }));

function live(t: Turn): ChatState {
  return [...sent, ...asActions(t.events)].reduce(chatReducer, initialChatState);
}

/** The turn as the server stores it (its message folded from the same payload). */
function storedTurn(t: Turn, assistant: Partial<MessagePublic> = {}): ConversationDetail {
  const p = t.payload;
  return {
    id: "c1",
    title: question,
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
    older: null,
    active_leaf_id: null,
    messages: [
      stored({ id: "m1", role: "user", content: question, run_id: "r1" }),
      stored({
        id: "m2",
        role: "assistant",
        content: p.message,
        suggested_values: p.suggested_values,
        suggested_actions: p.suggested_actions,
        custom_payload: p.custom_payload,
        payloads: p.payloads,
        tool_history: p.tool_history,
        usage: p.usage,
        warnings: p.warnings,
        stop_reason: p.stop_reason,
        run_id: "r1",
        ...assistant,
      }),
    ],
  };
}

/**
 * What the tray shows: a user message's id (and run) is the client's own live and the
 * server's once stored; neither is rendered.
 */
// The time of a message is the server's; a live one carries the browser's until it is read back.
const shown = (state: ChatState) =>
  state.messages.map((m) => (m.role === "user" ? { ...m, id: "", run_id: null, created_at: null } : { ...m, created_at: null }));

describe("a turn folded live equals its stored and replayed forms", () => {
  it("loading the stored turn gives exactly the messages of the live turn", () => {
    fc.assert(
      fc.property(turn, (t) => {
        const loaded = chatReducer(initialChatState, { type: "load", conversation: storedTurn(t) });
        expect(shown(loaded)).toEqual(shown(live(t)));
        expect(loaded.status).toBe("ready");
      }),
      { numRuns: RUNS },
    );
  });

  it("a stored running turn replayed from its first event ends exactly as the live one", () => {
    fc.assert(
      fc.property(turn, fc.string({ maxLength: 10 }), (t, partial) => {
        const running = storedTurn(t, { content: partial, status: "running" });
        const loaded = chatReducer(initialChatState, { type: "load", conversation: running });
        expect(loaded.status).toBe("reconnecting");
        const replayed = asActions(t.events).reduce(chatReducer, loaded);
        expect(shown(replayed)).toEqual(shown(live(t)));
        expect(replayed.status).toBe("ready");
      }),
      { numRuns: RUNS },
    );
  });

  it("a connection dropped after any event and resumed from there ends exactly as the live one", () => {
    fc.assert(
      fc.property(
        turn.chain((t) => fc.tuple(fc.constant(t), fc.nat(t.events.length))),
        fc.boolean(),
        ([t, cut], canResume) => {
          const before = [...sent, ...asActions(t.events.slice(0, cut))].reduce(chatReducer, initialChatState);
          fc.pre(isBusy(before.status));
          const dropped = [
            { type: "reconnecting" },
            { type: "connection_failed", message: "lost", canResume },
            { type: "resume" },
          ] satisfies ChatAction[];
          // Step by step, the resumed answer shows what the unbroken one shows: nothing lost, nothing twice.
          let unbroken = before;
          let resumed = dropped.reduce(chatReducer, before);
          for (const action of asActions(t.events.slice(cut), cut + 1)) {
            unbroken = chatReducer(unbroken, action);
            resumed = chatReducer(resumed, action);
            expect(resumed.streamingText).toBe(unbroken.streamingText);
            expect(resumed.liveTools).toEqual(unbroken.liveTools);
          }
          expect(shown(resumed)).toEqual(shown(live(t)));
          expect(resumed.lastEventId).toBe(t.events.length);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("while streaming, the text shown is a prefix of the final answer and finished tool cards match it", () => {
    fc.assert(
      fc.property(turn, (t) => {
        let state = sent.reduce(chatReducer, initialChatState);
        for (const action of asActions(t.events.slice(0, -1))) {
          state = chatReducer(state, action);
          expect(t.payload.message.startsWith(state.streamingText)).toBe(true);
          const shownTools = liveToolHistory(state.liveTools.filter((x) => x.done));
          const finalTools = t.payload.tool_history.slice(0, shownTools.length).map((h) => ({ ...h, payload: null }));
          expect(shownTools).toEqual(finalTools);
        }
        // Just before `complete` the answer is all there: completing it never makes it jump.
        expect(state.streamingText).toBe(t.payload.message);
        expect(liveToolHistory(state.liveTools.filter((x) => x.done))).toHaveLength(t.payload.tool_history.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("a stop after any event keeps exactly the text and tool calls the user saw", () => {
    fc.assert(
      fc.property(
        turn.chain((t) => fc.tuple(fc.constant(t), fc.nat(t.events.length - 1))),
        fc.constantFrom("cancelled" as const, "stopped_locally" as const),
        ([t, cut], how) => {
          const before = [...sent, ...asActions(t.events.slice(0, cut))].reduce(chatReducer, initialChatState);
          const stop: ChatAction = how === "cancelled" ? { type: "event", event: { type: "cancelled" }, id: cut + 1 } : { type: "stopped_locally" };
          const after = chatReducer(before, stop);
          const kept = after.messages.at(-1);
          expect(kept?.status).toBe("cancelled");
          expect(kept?.content).toBe(before.streamingText);
          expect(kept?.tool_history).toEqual(liveToolHistory(before.liveTools.filter((x) => x.done)));
          expect(after.status).toBe("ready");
        },
      ),
      { numRuns: RUNS },
    );
  });
});
