import { describe, expect, it } from "vitest";
import { liveEvents } from "../../test/fixtures";
import { chatParts, delta, runHeaders, until } from "../../test/parts";
import { json, SseResponse } from "../../test/sse-server";
import { HttpError, StreamDroppedError, UnauthorizedError } from "../api";
import { chatReducer, emptyMessage, initialChatState, type ChatState } from "../state";
import { streamFailure } from "./stream";

const question = { type: "send", message: emptyMessage("u1", "user", "Find CRISPR papers") } as const;

/** A turn under way on a stream the test writes to; `done` settles when the stream is left. */
function turn(stopTimeoutMs?: number) {
  const parts = chatParts(stopTimeoutMs === undefined ? {} : { stopTimeoutMs });
  const sse = new SseResponse(runHeaders());
  parts.fake.on("POST", "/api/chat/stream", () => sse.response);
  const done = parts.stream.start(question, (signal) => parts.api.chatStream({ message: "hi", context: {}, conversation_id: null, attachments: [] }, signal));
  return { ...parts, sse, done };
}

describe("RunStream", () => {
  it("shows the question at once, then folds the answer as it streams", async () => {
    const { store, sse, done } = turn();
    expect(store.getState()).toMatchObject({ status: "submitted", messages: [{ role: "user", content: "Find CRISPR papers" }] });
    liveEvents.forEach((event, i) => sse.send(i + 1, event));
    await done;
    const state = store.getState();
    expect(state).toMatchObject({ status: "ready", runId: null, conversationId: "c1", streamingText: "" });
    expect(state.messages.map((m) => [m.role, m.status])).toEqual([["user", "complete"], ["assistant", "complete"]]);
    expect(state.messages[1]?.tool_history).toHaveLength(1);
  });

  it("Stop cancels the run on the server and keeps the partial answer, marked stopped", async () => {
    const { fake, store, stream, sse, done } = turn();
    fake.on("POST", "/api/chat/runs/r1/cancel", () => {
      sse.send(3, { type: "cancelled" });
      return json({ run_id: "r1", cancelled: true }, 202);
    });
    sse.send(1, delta("Partial ")).send(2, delta("answer"));
    await until(() => store.getState().streamingText === "Partial answer");
    await stream.stop();
    await done;
    expect(store.getState().messages.at(-1)).toMatchObject({ status: "cancelled", content: "Partial answer" });
    expect(store.getState().status).toBe("ready");
  });

  it("a Stop the server never answers stops here after the wait, keeping the partial answer", async () => {
    const { fake, store, stream, sse, done } = turn(20);
    fake.on("POST", "/api/chat/runs/r1/cancel", () => json({ run_id: "r1", cancelled: true }, 202));
    sse.send(1, delta("so far"));
    await until(() => store.getState().streamingText === "so far");
    await stream.stop();
    await done;
    expect(store.getState()).toMatchObject({ status: "ready", error: null });
    expect(store.getState().messages.at(-1)).toMatchObject({ status: "cancelled", content: "so far" });
  });

  it("a dropped stream shows an error whose Retry resumes the run", async () => {
    const { fake, store, sse, done } = turn();
    fake.on("GET", "/api/chat/runs/r1/events", () => {
      throw new TypeError("Failed to fetch");
    });
    sse.send(1, delta("Hello ")).drop();
    await done;
    expect(store.getState()).toMatchObject({
      status: "error",
      streamingText: "Hello ",
      runId: "r1",
      lastEventId: 1,
      error: { message: "The connection to the server was lost.", retry: "resume" },
    });
  });

  it("once detached, the stream shows nothing more, and a Stop under way no longer ends the turn", async () => {
    const { fake, store, stream, sse, done } = turn(20);
    fake.on("POST", "/api/chat/runs/r1/cancel", () => json({ run_id: "r1", cancelled: true }, 202));
    sse.send(1, delta("a"));
    await until(() => store.getState().streamingText === "a");
    await stream.stop();
    store.nextGeneration();
    stream.detach();
    sse.send(2, delta("b")).send(3, { type: "cancelled" });
    await done;
    // Past the Stop's wait: had it not been forgotten, it would have ended the turn here.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(store.getState()).toMatchObject({ status: "streaming", streamingText: "a" });
    expect(store.getState().messages.map((m) => m.role)).toEqual(["user"]);
  });
});

describe("streamFailure", () => {
  const shown = (error: unknown, started: boolean, state: ChatState = initialChatState) =>
    chatReducer(state, streamFailure(error, started, state)).error;

  it("a refused turn shows the server's words, and Retry sends it again", () => {
    expect(shown(new HttpError(429, "Please wait 12 s."), false)).toEqual({ message: "Please wait 12 s.", retry: "resend", inMessage: false });
    expect(shown(new TypeError("Failed to fetch"), false)).toMatchObject({
      message: "Could not reach the server. Check your connection.",
      retry: "resend",
    });
  });

  it("a signed-out user gets no Retry", () => {
    expect(shown(new UnauthorizedError("Not authenticated"), true)).toMatchObject({ message: "Not authenticated", retry: "none" });
  });

  it("a lost connection resumes the run when it is known, else sends again", () => {
    expect(shown(new StreamDroppedError("r1", 4), true)).toMatchObject({ retry: "resume" });
    expect(shown(new StreamDroppedError(null, 0), true)).toMatchObject({ retry: "resend" });
    expect(shown(new HttpError(502, null), true)).toMatchObject({ message: "The connection to the server was lost.", retry: "resume" });
  });

  it("a run that is gone cannot be resumed; one replayed from storage shows as it was stored", () => {
    expect(shown(new HttpError(404, "Run not found"), true)).toMatchObject({ message: "Run not found", retry: "resend" });
    const stored = { ...emptyMessage("m2", "assistant", "Let"), status: "running" as const, run_id: "r1" };
    const replaying: ChatState = { ...initialChatState, status: "reconnecting", runId: "r1", resumeFallback: stored };
    const after = chatReducer(replaying, streamFailure(new HttpError(404, "Run not found"), true, replaying));
    expect(after.messages.at(-1)).toMatchObject({ id: "m2", content: "Let", status: "interrupted" });
    expect(after.status).toBe("ready");
  });
});
