import { describe, expect, it } from "vitest";
import { storedConversation } from "../../test/fixtures";
import { chatParts, context } from "../../test/parts";
import { json } from "../../test/sse-server";
import { ServerActions } from "./actions";

function actions() {
  const parts = chatParts();
  return { ...parts, actions: new ServerActions(parts) };
}

describe("ServerActions", () => {
  it("runs an action in the conversation with the page context and shows it applied", async () => {
    const { fake, store, history, actions: run } = actions();
    fake.on("GET", "/api/conversations/c1", () => json(storedConversation));
    await history.show("c1", false);
    fake.on("POST", "/api/chat/actions", () => json({ action: "apply", ok: true, message: "Saved 2 papers", data: { saved: 2 } }));
    const result = await run.runAction("apply", { ids: [1, 2] });
    expect(result).toMatchObject({ ok: true, data: { saved: 2 } });
    expect(fake.calls.at(-1)?.body).toEqual({ conversation_id: "c1", action: "apply", data: { ids: [1, 2] }, context });
    expect(store.getState().messages.at(-1)).toMatchObject({
      role: "action",
      status: "complete",
      content: "Applied action apply: Saved 2 papers",
      custom_payload: { type: "action_result", data: { action: "apply", input: { ids: [1, 2] }, result } },
    });
  });

  it("a chat button's action runs with its data; a failure without a reason says so", async () => {
    const { fake, store, actions: run } = actions();
    fake.on("POST", "/api/chat/actions", () => json({ action: "close", ok: false, message: "", data: null }));
    await run.runServerAction({ label: "Close", action: "close", handler: "server", data: null, style: null });
    expect(fake.calls[0]?.body).toMatchObject({ conversation_id: null, action: "close", data: {} });
    expect(store.getState().messages.at(-1)).toMatchObject({ status: "error", content: "Action close failed (no reason given)" });
  });

  it("an action the server refuses or cannot be reached for reads as failed, with the reason", async () => {
    const { fake, store, actions: run } = actions();
    fake.on("POST", "/api/chat/actions", () => json({ detail: "Unknown action: nope" }, 404));
    fake.on("POST", "/api/chat/actions", () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await run.runAction("nope")).toMatchObject({ ok: false, message: "Unknown action: nope" });
    expect(await run.runAction("apply")).toMatchObject({ ok: false, message: "The action could not be run." });
    expect(store.getState().messages.map((m) => m.content)).toEqual([
      "Action nope failed: Unknown action: nope",
      "Action apply failed: The action could not be run.",
    ]);
  });
});
