import { describe, expect, it } from "vitest";
import { stored, storedConversation } from "../../test/fixtures";
import { chatParts, runHeaders, until } from "../../test/parts";
import { json, SseResponse } from "../../test/sse-server";
import { emptyMessage } from "../state";

const page = (ids: string[], older: string | null) => ({
  ...storedConversation,
  messages: ids.map((id, i) => stored({ id, role: i % 2 === 0 ? "user" : "assistant", content: id })),
  older,
});

const ids = (messages: { id: string }[]) => messages.map((m) => m.id);

describe("History", () => {
  it("shows the newest page of a conversation, then each earlier one before it, one request at a time", async () => {
    const { fake, store, history } = chatParts();
    fake.on("GET", "/api/conversations/c1", () => json(page(["m5", "m6"], "5")));
    fake.on("GET", "/api/conversations/c1", () => json(page(["m3", "m4"], "3")));
    fake.on("GET", "/api/conversations/c1", () => json({ detail: "down" }, 503));
    fake.on("GET", "/api/conversations/c1", () => json(page(["m1", "m2"], null)));
    expect(await history.show("c1", false)).toBe(true);
    expect(store.getState()).toMatchObject({ conversationId: "c1", status: "ready", older: "5" });
    await Promise.all([history.loadOlder(), history.loadOlder()]);
    expect(ids(store.getState().messages)).toEqual(["m3", "m4", "m5", "m6"]);
    await history.loadOlder(); // fails: what is shown stays, and the next scroll asks again
    expect(ids(store.getState().messages)).toEqual(["m3", "m4", "m5", "m6"]);
    await history.loadOlder();
    await history.loadOlder(); // nothing older: no request
    expect(ids(store.getState().messages)).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(fake.calls.map((c) => c.url.replace(/^.*\/api/, ""))).toEqual([
      "/conversations/c1",
      "/conversations/c1?before=5",
      "/conversations/c1?before=3",
      "/conversations/c1?before=3",
    ]);
  });

  it("a conversation that cannot be loaded says why; restoring one after a reload starts afresh", async () => {
    const { fake, store, history } = chatParts();
    fake.on("GET", "/api/conversations/gone", () => json({ detail: "Conversation not found" }, 404));
    expect(await history.show("gone", false)).toBe(false);
    expect(store.getState()).toMatchObject({ status: "error", error: { message: "Conversation not found", retry: "none" } });
    fake.on("GET", "/api/conversations/gone", () => json({ detail: "Conversation not found" }, 404));
    expect(await history.show("gone", true)).toBe(false);
    expect(store.getState()).toMatchObject({ status: "ready", error: null, messages: [], conversationId: null });
  });

  it("a conversation that arrives after something else was shown is not shown", async () => {
    const { fake, store, history } = chatParts();
    let answer: () => void = () => undefined;
    fake.on("GET", "/api/conversations/c1", () => new Promise<Response>((resolve) => (answer = () => { resolve(json(storedConversation)); })));
    const showing = history.show("c1", false);
    await until(() => fake.calls.length === 1);
    store.nextGeneration();
    history.detach();
    store.dispatch({ type: "reset" });
    await history.whenLoaded(); // the forgotten load holds nothing up
    answer();
    expect(await showing).toBe(false);
    expect(store.getState()).toMatchObject({ conversationId: null, messages: [] });
  });

  it("waits for a conversation being loaded, so what follows joins it", async () => {
    const { fake, store, history } = chatParts();
    let answer: () => void = () => undefined;
    fake.on("GET", "/api/conversations/c1", () => new Promise<Response>((resolve) => (answer = () => { resolve(json(storedConversation)); })));
    const showing = history.show("c1", true);
    const joined = history.whenLoaded().then(() => store.getState().conversationId);
    await until(() => fake.calls.length === 1);
    expect(store.getState().conversationId).toBeNull();
    answer();
    await showing;
    expect(await joined).toBe("c1");
  });

  it("a message of this session's turn is found by its stored id, read back from the server", async () => {
    const { fake, store, stream, api, history } = chatParts();
    const sse = new SseResponse(runHeaders());
    fake.on("POST", "/api/chat/stream", () => sse.response);
    sse.send(1, { type: "cancelled" });
    await stream.start({ type: "send", message: emptyMessage("user-local-1", "user", "Find CRISPR papers") }, (signal) =>
      api.chatStream({ message: "Find CRISPR papers", context: {}, conversation_id: null, attachments: [] }, signal),
    );
    expect(ids(store.getState().messages)).toEqual(["user-local-1", "partial-r1"]);
    fake.on("GET", "/api/conversations/c1", () => json(storedConversation));
    const found = await history.stored("user-local-1");
    expect(found).toMatchObject({ id: "m1", content: "Find CRISPR papers" });
    expect(ids(store.getState().messages)).toEqual(["m1", "m2"]);
    expect(await history.stored("nowhere")).toBeNull();
  });
});
