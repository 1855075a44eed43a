import { describe, expect, it, vi } from "vitest";
import { liveEvents, stored, storedConversation } from "../test/fixtures";
import { FakeFetch, json, SseResponse } from "../test/sse-server";
import { createChatApi } from "./api";
import { ChatController, type Scheduler } from "./chat";
import type { ChatMessage, StreamEvent } from "./types";

const runHeaders = (run = "r1") => ({ "X-Run-Id": run, "X-Conversation-Id": "c1" });
const delta = (text: string): StreamEvent => ({ type: "text_delta", text });

function setup({ schedule }: { schedule?: Scheduler } = {}) {
  const fake = new FakeFetch();
  const api = createChatApi({
    getToken: () => "tok",
    fetch: fake.fetch,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const controller = new ChatController({
    api,
    getContext: () => ({ current_page: "demo", count: 3 }),
    schedule: schedule ?? ((flush) => {
      queueMicrotask(flush);
    }),
    stopTimeoutMs: 200,
  });
  return { fake, controller };
}

const until = (check: () => boolean) => vi.waitFor(() => {
  if (!check()) throw new Error("not yet");
}, { timeout: 2000, interval: 2 });

describe("ChatController", () => {
  it("sends the message with the page context and folds the answer", async () => {
    const { fake, controller } = setup();
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    liveEvents.forEach((event, i) => stream.send(i + 1, event));
    await controller.send("Find CRISPR papers");
    expect(fake.calls[0]?.body).toEqual({
      message: "Find CRISPR papers",
      context: { current_page: "demo", count: 3 },
      conversation_id: null,
      attachments: [],
    });
    const state = controller.getState();
    expect(state.status).toBe("ready");
    expect(state.messages.map((m) => [m.role, m.status])).toEqual([["user", "complete"], ["assistant", "complete"]]);

    const next = new SseResponse(runHeaders("r2"));
    fake.on("POST", "/api/chat/stream", () => next.response);
    next.send(1, { type: "cancelled" });
    await controller.send("more");
    expect(fake.calls[1]?.body).toMatchObject({ conversation_id: "c1" });
  });

  it("applies the events that arrive within one frame in a single update", async () => {
    const frames: (() => void)[] = [];
    const { fake, controller } = setup({ schedule: (flush) => frames.push(flush) });
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    const updates = vi.fn();
    controller.subscribe(updates);
    const sending = controller.send("hi");
    await until(() => controller.getState().runId === "r1");
    updates.mockClear();
    for (let i = 0; i < 50; i++) stream.send(i + 1, delta("x"));
    await until(() => frames.length === 1 && controller.getState().streamingText === "" && updates.mock.calls.length === 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(controller.getState().streamingText).toBe("");
    frames.shift()?.();
    expect(updates).toHaveBeenCalledTimes(1);
    expect(controller.getState().streamingText).toBe("x".repeat(50));
    stream.send(51, { type: "cancelled" });
    await sending;
    expect(controller.getState().messages.at(-1)?.content).toBe("x".repeat(50));
  });

  it("stops through the cancel route and keeps the partial answer, marked stopped", async () => {
    const { fake, controller } = setup();
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    fake.on("POST", "/api/chat/runs/r1/cancel", () => {
      stream.send(3, { type: "cancelled" });
      return json({ run_id: "r1", cancelled: true }, 202);
    });
    const sending = controller.send("long");
    stream.send(1, delta("Partial ")).send(2, delta("answer"));
    await until(() => controller.getState().streamingText === "Partial answer");
    await controller.stop();
    await sending;
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toContain("POST /api/chat/runs/r1/cancel");
    expect(controller.getState().messages.at(-1)).toMatchObject({ status: "cancelled", content: "Partial answer" });
    expect(controller.getState().status).toBe("ready");
  });

  it("a Stop before the run is known is sent as soon as it is", async () => {
    const { fake, controller } = setup();
    const stream = new SseResponse(runHeaders());
    let answer!: (r: Response) => void;
    fake.on("POST", "/api/chat/stream", () => new Promise<Response>((resolve) => (answer = resolve)));
    fake.on("POST", "/api/chat/runs/r1/cancel", () => {
      stream.send(1, { type: "cancelled" });
      return json({}, 202);
    });
    const sending = controller.send("hi");
    await until(() => typeof answer === "function");
    void controller.stop();
    answer(stream.response);
    await sending;
    expect(controller.getState().messages.at(-1)?.status).toBe("cancelled");
  });

  it("stops locally when the server cannot be reached", async () => {
    const { fake, controller } = setup();
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    fake.on("POST", "/api/chat/runs/r1/cancel", () => json({ detail: "boom" }, 500));
    const sending = controller.send("hi");
    stream.send(1, delta("so far"));
    await until(() => controller.getState().streamingText === "so far");
    await controller.stop();
    await sending;
    expect(controller.getState().messages.at(-1)).toMatchObject({ status: "cancelled", content: "so far" });
  });

  it("after the connection is lost for good, Retry resumes the run where it broke", async () => {
    const { fake, controller } = setup();
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    fake.on("GET", "/api/chat/runs/r1/events", () => {
      throw new TypeError("Failed to fetch");
    });
    stream.send(1, delta("Hello ")).drop();
    await controller.send("hi");
    expect(controller.getState()).toMatchObject({
      status: "error",
      streamingText: "Hello ",
      error: { retry: "resume", inMessage: false },
    });
    const resumed = new SseResponse();
    fake.on("GET", "/api/chat/runs/r1/events", () => resumed.response);
    resumed.send(2, delta("world")).send(3, { type: "cancelled" });
    await controller.retry();
    expect(fake.calls.at(-1)?.headers.get("Last-Event-ID")).toBe("1");
    expect(controller.getState().messages.at(-1)?.content).toBe("Hello world");
  });

  it("Retry after a refused request sends the message again, shown once", async () => {
    const { fake, controller } = setup();
    fake.on("POST", "/api/chat/stream", () => json({ detail: "Service unavailable" }, 503));
    await controller.send("hi");
    expect(controller.getState().error).toMatchObject({ message: "Service unavailable", retry: "resend" });
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    stream.send(1, { type: "cancelled" });
    await controller.retry();
    expect(controller.getState().messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["hi"]);
  });

  it("a turn refused by a quota shows the server's words, and Retry sends it again", async () => {
    const { fake, controller } = setup();
    const detail = "You have sent 20 messages this minute. Please wait 12 s.";
    fake.on("POST", "/api/chat/stream", () => json({ detail, quota: "turns_per_minute", retry_after: 12 }, 429));
    await controller.send("hi");
    expect(fake.calls.filter((c) => c.method === "POST")).toHaveLength(1);
    expect(controller.getState()).toMatchObject({ status: "error", error: { message: detail, retry: "resend" } });
  });

  it("Retry after a run error sends the last message again", async () => {
    const { fake, controller } = setup();
    const first = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => first.response);
    first.send(1, { type: "error", message: "overloaded", code: "overloaded" });
    await controller.send("hi");
    const second = new SseResponse(runHeaders("r2"));
    fake.on("POST", "/api/chat/stream", () => second.response);
    second.send(1, { type: "cancelled" });
    await controller.retry();
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "hi", conversation_id: "c1" });
  });

  it("shows the newest page of a long conversation, then the earlier ones before it", async () => {
    const { fake, controller } = setup();
    const page = (ids: string[], older: string | null) => ({
      ...storedConversation,
      messages: ids.map((id, i) => stored({ id, role: i % 2 === 0 ? "user" : "assistant", content: id })),
      older,
    });
    fake.on("GET", "/api/conversations/c1", () => json(page(["m5", "m6"], "5")));
    fake.on("GET", "/api/conversations/c1", () => json(page(["m3", "m4"], "3")));
    fake.on("GET", "/api/conversations/c1", () => json(page(["m1", "m2"], null)));
    await controller.loadConversation("c1");
    await Promise.all([controller.loadOlder(), controller.loadOlder()]); // one request, not two
    expect(controller.getState().messages.map((m) => m.id)).toEqual(["m3", "m4", "m5", "m6"]);
    await controller.loadOlder();
    await controller.loadOlder(); // nothing older: no request
    expect(controller.getState().messages.map((m) => m.id)).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(controller.getState().older).toBeNull();
    expect(fake.calls.map((c) => c.url.replace(/^.*\/api/, ""))).toEqual([
      "/conversations/c1",
      "/conversations/c1?before=5",
      "/conversations/c1?before=3",
    ]);
  });

  it("loads a conversation and follows a turn still running in it from the start", async () => {
    const { fake, controller } = setup();
    const running = {
      ...storedConversation,
      messages: [
        ...storedConversation.messages.slice(0, 1),
        stored({ id: "m2", role: "assistant", content: "Let", status: "running", run_id: "r1" }),
      ],
    };
    const replay = new SseResponse();
    fake.on("GET", "/api/conversations/c1", () => json(running));
    fake.on("GET", "/api/chat/runs/r1/events", () => replay.response);
    liveEvents.forEach((event, i) => replay.send(i + 1, event));
    await controller.loadConversation("c1");
    expect(fake.calls.at(-1)?.headers.get("Last-Event-ID")).toBe("0");
    // Times aside: a live message carries the browser's until the conversation is read back.
    const untimed = (messages: ChatMessage[]) => messages.map((m) => ({ ...m, created_at: null }));
    expect(untimed(controller.getState().messages)).toEqual(
      untimed(
        await (async () => {
          const other = setup();
          other.fake.on("GET", "/api/conversations/c1", () => json(storedConversation));
          await other.controller.loadConversation("c1");
          return other.controller.getState().messages;
        })(),
      ),
    );
  });

  it("a server action's result is kept as an action message shaped as the server stores it", async () => {
    const { fake, controller } = setup();
    fake.on("POST", "/api/chat/actions", () => json({ action: "apply", ok: false, message: "Nothing to apply", data: null }));
    const result = await controller.runServerAction({ label: "Apply", action: "apply", handler: "server", data: { id: 1 }, style: null });
    expect(result.ok).toBe(false);
    expect(fake.calls[0]?.body).toEqual({ conversation_id: null, action: "apply", data: { id: 1 }, context: { current_page: "demo", count: 3 } });
    expect(controller.getState().messages).toEqual([
      expect.objectContaining({
        role: "action",
        content: "Action apply failed: Nothing to apply",
        status: "error",
        custom_payload: {
          type: "action_result",
          data: { action: "apply", input: { id: 1 }, result: { action: "apply", ok: false, message: "Nothing to apply", data: null } },
        },
      }),
    ]);
  });

  it("a new conversation forgets the old one and stops following its stream", async () => {
    const { fake, controller } = setup();
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    const sending = controller.send("hi");
    stream.send(1, delta("a"));
    await until(() => controller.getState().streamingText === "a");
    controller.newConversation();
    await sending;
    expect(controller.getState()).toMatchObject({ messages: [], status: "ready", conversationId: null });
  });

  it("a message sent while the saved conversation is still loading joins that conversation", async () => {
    const { fake, controller } = setup();
    let answerLoad: () => void = () => undefined;
    fake.on("GET", "/api/conversations/c1", () => new Promise<Response>((resolve) => (answerLoad = () => { resolve(json(storedConversation)); })));
    const stream = new SseResponse(runHeaders("r2"));
    fake.on("POST", "/api/chat/stream", () => stream.response);
    stream.send(1, { type: "complete", payload: { ...turnPayload("Sure."), message_id: "m4" } });

    const loading = controller.loadConversation("c1", { quiet: true });
    const sending = controller.send("And the second one?");
    await until(() => fake.calls.length === 1);
    expect(fake.calls.some((c) => c.method === "POST")).toBe(false);
    answerLoad();
    await Promise.all([loading, sending]);

    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual(["GET /api/conversations/c1", "POST /api/chat/stream"]);
    expect(fake.calls[1]?.body).toMatchObject({ message: "And the second one?", conversation_id: "c1" });
    const state = controller.getState();
    expect(state.conversationId).toBe("c1");
    expect(state.messages.map((m) => m.content)).toEqual([
      ...storedConversation.messages.map((m) => m.content),
      "And the second one?",
      "Sure.",
    ]);
  });

  it("a message sent while a conversation fails to load starts a new one", async () => {
    const { fake, controller } = setup();
    fake.on("GET", "/api/conversations/gone", () => json({ detail: "Conversation not found" }, 404));
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    stream.send(1, { type: "cancelled" });

    await Promise.all([controller.loadConversation("gone", { quiet: true }), controller.send("hello")]);

    expect(fake.calls[1]?.body).toMatchObject({ message: "hello", conversation_id: null });
  });

  it("records a decision on a card at once, then on the server; closing keeps an accept", async () => {
    const { fake, controller } = setup();
    const card = { type: "proposal", data: { name: "x" } };
    fake.on("GET", "/api/conversations/c1", () =>
      json({ ...storedConversation, messages: [...storedConversation.messages, stored({ id: "m3", role: "assistant", content: "Here", custom_payload: card })] }),
    );
    await controller.loadConversation("c1");
    const decision = (id: string) => controller.getState().messages.find((m) => m.id === id)?.payload_decision;
    let answer: (value: Response) => void = () => undefined;
    fake.on("POST", "/api/conversations/c1/messages/m3/decision", () => new Promise<Response>((resolve) => (answer = resolve)));

    const deciding = controller.decidePayload("m3", "accepted");
    expect(decision("m3")).toBe("accepted");
    await until(() => fake.calls.at(-1)?.url.endsWith("/decision") === true);
    answer(json(stored({ id: "m3", role: "assistant", content: "Here", custom_payload: card, payload_decision: "accepted" })));
    await deciding;
    expect(fake.calls.at(-1)?.body).toEqual({ decision: "accepted" });

    await controller.decidePayload("m3", "dismissed");
    expect(decision("m3")).toBe("accepted");
    fake.on("POST", "/api/conversations/c1/messages/m3/decision", () => json({ detail: "down" }, 503));
    await controller.decidePayload("m3", "rejected");
    expect(decision("m3")).toBe("rejected");
    await controller.decidePayload("m1", "accepted");
    expect(decision("m1")).toBeNull();
    expect(fake.calls.filter((c) => c.url.endsWith("/decision")).map((c) => c.body)).toEqual([
      { decision: "accepted" },
      { decision: "rejected" },
    ]);
  });
});

describe("ChatController with attachments", () => {
  const paper = { id: "a2", name: "paper.pdf", media_type: "application/pdf", size: 10 };
  const pdf = () => new File(["%PDF-1.4"], "paper.pdf", { type: "application/pdf" });

  it("sends the composer's files with its text, or alone, and starts the next message afresh", async () => {
    const { fake, controller } = setup();
    fake.on("POST", "/api/attachments", () => json(paper, 201));
    controller.drafts.add([pdf()]);
    await until(() => !controller.drafts.getState().pending);
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    stream.send(1, { type: "complete", payload: turnPayload("It is a trial.") });
    await controller.sendDraft("");
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "", attachments: ["a2"] });
    expect(controller.getState().messages[0]).toMatchObject({ role: "user", content: "", attachments: [paper] });
    expect(controller.drafts.getState().drafts).toEqual([]);
    // Nothing to send: no text, no files.
    await controller.sendDraft("  ");
    expect(fake.calls.filter((c) => c.url === "/api/chat/stream")).toHaveLength(1);
  });

  it("holds the message while a file uploads", async () => {
    const { fake, controller } = setup();
    fake.on("POST", "/api/attachments", () => new Promise<Response>(() => undefined));
    controller.drafts.add([pdf()]);
    await controller.sendDraft("What is it?");
    expect(fake.calls.some((c) => c.url === "/api/chat/stream")).toBe(false);
    expect(controller.drafts.getState().drafts).toHaveLength(1);
  });

  it("sends the files again on Retry after the server refused the message", async () => {
    const { fake, controller } = setup();
    fake.on("POST", "/api/chat/stream", () => json({ detail: "Busy." }, 503));
    await controller.send("Summarise", undefined, [paper]);
    expect(controller.getState().error?.retry).toBe("resend");
    const stream = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => stream.response);
    stream.send(1, { type: "complete", payload: turnPayload("Done.") });
    await controller.retry();
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "Summarise", attachments: ["a2"] });
    expect(controller.getState().messages.filter((m) => m.role === "user").map((m) => m.attachments)).toEqual([[paper]]);
  });
});

function turnPayload(message: string): Extract<StreamEvent, { type: "complete" }>["payload"] {
  return {
    message,
    reasoning: null,
    sources: [],
    suggested_values: null,
    suggested_actions: null,
    custom_payload: null,
    payloads: [],
    tool_history: [],
    conversation_id: "c1",
    message_id: null,
    usage: null,
    warnings: [],
    stop_reason: "end_turn",
  };
}
