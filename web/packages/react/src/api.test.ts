import { describe, expect, it, vi } from "vitest";
import { FakeFetch, json, SseResponse } from "../test/sse-server";
import { createChatApi, HttpError, StreamDroppedError, UnauthorizedError, type StreamItem } from "./api";
import type { StreamEvent } from "./types";

const request = { message: "hi", context: { current_page: "demo" }, conversation_id: null, attachments: [] };
const runHeaders = { "X-Run-Id": "r1", "X-Conversation-Id": "c1" };
const delta = (text: string): StreamEvent => ({ type: "text_delta", text });
const done: StreamEvent = { type: "cancelled" };

function setup(onUnauthorized = vi.fn()) {
  const fake = new FakeFetch();
  const api = createChatApi({
    getToken: () => "tok",
    onUnauthorized,
    fetch: fake.fetch,
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
  });
  return { fake, api, onUnauthorized };
}

async function collect(stream: AsyncGenerator<StreamItem>): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

describe("chatStream", () => {
  it("posts the request with the bearer token and yields the run, then its events up to the end", async () => {
    const { fake, api } = setup();
    const first = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => first.response);
    first.send(1, delta("a")).ping().send(2, delta("b")).send(3, done).send(4, delta("after the end"));
    const items = await collect(api.chatStream(request));
    expect(items).toEqual([
      { kind: "run", runId: "r1", conversationId: "c1" },
      { kind: "event", id: 1, event: delta("a") },
      { kind: "event", id: 2, event: delta("b") },
      { kind: "event", id: 3, event: done },
    ]);
    const call = fake.calls[0];
    expect(call?.body).toEqual(request);
    expect(call?.headers.get("Authorization")).toBe("Bearer tok");
  });

  it("resumes after a dropped connection from the last event id, without losing or repeating events", async () => {
    const { fake, api } = setup();
    const first = new SseResponse(runHeaders);
    const second = new SseResponse();
    fake.on("POST", "/api/chat/stream", () => first.response);
    fake.on("GET", "/api/chat/runs/r1/events", () => second.response);
    first.send(1, delta("a")).send(2, delta("b"));
    first.drop();
    second.send(3, delta("c")).send(4, done);
    const items = await collect(api.chatStream(request));
    expect(items.filter((i) => i.kind === "event").map((i) => i.id)).toEqual([1, 2, 3, 4]);
    expect(items.some((i) => i.kind === "reconnecting")).toBe(true);
    const resume = fake.calls[1];
    expect(resume?.headers.get("Last-Event-ID")).toBe("2");
    expect(resume?.headers.get("Authorization")).toBe("Bearer tok");
  });

  it("resumes when the stream ends without a terminal event", async () => {
    const { fake, api } = setup();
    const first = new SseResponse(runHeaders);
    const second = new SseResponse();
    fake.on("POST", "/api/chat/stream", () => first.response);
    fake.on("GET", "/api/chat/runs/r1/events", () => second.response);
    first.send(1, delta("a")).end();
    second.send(2, done);
    const items = await collect(api.chatStream(request));
    expect(items.at(-1)).toEqual({ kind: "event", id: 2, event: done });
    expect(fake.calls[1]?.headers.get("Last-Event-ID")).toBe("1");
  });

  it("gives up after its retries with an error that says where to resume", async () => {
    const { fake, api } = setup();
    const first = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => first.response);
    for (let i = 0; i < 2; i++) {
      fake.on("GET", "/api/chat/runs/r1/events", () => {
        throw new TypeError("Failed to fetch");
      });
    }
    first.send(1, delta("a")).drop();
    const error: unknown = await collect(api.chatStream(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamDroppedError);
    expect(error).toMatchObject({ runId: "r1", lastEventId: 1 });
    expect(fake.calls.filter((c) => c.method === "GET")).toHaveLength(2);
  });

  it("stops retrying when the run is gone", async () => {
    const { fake, api } = setup();
    fake.on("GET", "/api/chat/runs/r1/events", () => json({ detail: "Run not found" }, 404));
    const error: unknown = await collect(api.resumeRun("r1", 3)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, message: "Run not found" });
    expect(fake.calls).toHaveLength(1);
  });

  it("skips events of types it does not know", async () => {
    const { fake, api } = setup();
    const first = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => first.response);
    first.send(1, { type: "future_event" } as unknown as StreamEvent).send(2, done);
    const items = await collect(api.chatStream(request));
    expect(items.filter((i) => i.kind === "event")).toEqual([{ kind: "event", id: 2, event: done }]);
  });

  it("tells the host about a 401", async () => {
    const { fake, api, onUnauthorized } = setup();
    fake.on("POST", "/api/chat/stream", () => json({ detail: "Invalid or expired token" }, 401));
    const error: unknown = await collect(api.chatStream(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it("reports a validation error's message", async () => {
    const { fake, api } = setup();
    fake.on("POST", "/api/chat/stream", () =>
      json({ detail: [{ loc: ["body", "message"], msg: "message must not be blank", type: "value_error" }] }, 422),
    );
    await expect(collect(api.chatStream(request))).rejects.toThrow("message must not be blank");
  });
});

describe("the other routes", () => {
  it("call the contract's paths with the token", async () => {
    const { fake, api } = setup();
    const conversation = { id: "c 1", title: "t", created_at: "", updated_at: "" };
    fake
      .on("POST", "/api/chat/runs/r1/cancel", () => json({ run_id: "r1", cancelled: true }, 202))
      .on("GET", "/api/conversations", () => json({ items: [], total: 0, offset: 20, limit: 10 }))
      .on("GET", "/api/conversations/c%201", () => json({ ...conversation, messages: [] }))
      .on("PATCH", "/api/conversations/c%201", () => json({ ...conversation, title: "New" }))
      .on("DELETE", "/api/conversations/c%201", () => new Response(null, { status: 204 }))
      .on("POST", "/api/chat/actions", () => json({ action: "apply", ok: true, message: "Applied", data: null }))
      .on("GET", "/api/auth/me", () => json({ id: "u1", email: "a@b.c", is_admin: false }));
    await api.cancelRun("r1");
    expect(await api.listConversations(20, 10)).toMatchObject({ offset: 20 });
    expect(fake.calls.at(-1)?.url).toBe("/api/conversations?offset=20&limit=10");
    expect(await api.getConversation("c 1")).toMatchObject({ messages: [] });
    expect(await api.renameConversation("c 1", "New")).toMatchObject({ title: "New" });
    expect(fake.calls.at(-1)?.body).toEqual({ title: "New" });
    await api.deleteConversation("c 1");
    const action = { conversation_id: "c1", action: "apply", data: { x: 1 }, context: {} };
    expect(await api.runAction(action)).toMatchObject({ ok: true, message: "Applied" });
    expect(fake.calls.at(-1)?.body).toEqual(action);
    expect(await api.me()).toMatchObject({ email: "a@b.c" });
    expect(fake.calls.every((c) => c.headers.get("Authorization") === "Bearer tok")).toBe(true);
  });

  it("logs in without a token and without logging out on a wrong password", async () => {
    const { fake, api, onUnauthorized } = setup();
    fake
      .on("POST", "/api/auth/login", () => json({ access_token: "t2", token_type: "bearer" }))
      .on("POST", "/api/auth/login", () => json({ detail: "Wrong email or password" }, 401));
    expect(await api.login("a@b.c", "pw")).toEqual({ access_token: "t2", token_type: "bearer" });
    expect(fake.calls[0]?.headers.has("Authorization")).toBe(false);
    expect(fake.calls[0]?.body).toEqual({ email: "a@b.c", password: "pw" });
    await expect(api.login("a@b.c", "bad")).rejects.toThrow("Wrong email or password");
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
