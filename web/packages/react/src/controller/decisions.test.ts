import { describe, expect, it } from "vitest";
import { stored, storedConversation } from "../../test/fixtures";
import { chatParts, runHeaders } from "../../test/parts";
import { json, SseResponse } from "../../test/sse-server";
import { emptyMessage } from "../state";
import type { ConversationDetail, MessagePublic } from "../types";
import { Decisions } from "./decisions";

const card = { type: "proposal", data: { name: "x" } };
const approval = {
  id: "ap1",
  kind: "approval" as const,
  tool: "delete_stream",
  tool_use_id: "call_1",
  input: { id: 7 },
  reason: "Deletes a stream",
  status: "pending" as const,
  note: null,
  expires_at: null,
};

const withLast = (last: MessagePublic): ConversationDetail => ({ ...storedConversation, messages: [...storedConversation.messages, last] });

/** Decisions over stored conversation c1 shown as `conversation`; a reload shows it again. */
async function decisions(conversation: ConversationDetail = storedConversation) {
  const parts = chatParts();
  parts.fake.always("GET", "/api/conversations/c1", () => json(conversation));
  await parts.history.show("c1", false);
  const reload = (id: string) => parts.history.show(id, false);
  return { ...parts, decisions: new Decisions({ ...parts, reload }) };
}

describe("Decisions", () => {
  it("a card's decision shows at once and is recorded; closing it after an accept keeps the accept", async () => {
    const { fake, store, decisions: decide } = await decisions(withLast(stored({ id: "m3", role: "assistant", content: "Here", custom_payload: card })));
    fake.on("POST", "/api/conversations/c1/messages/m3/decision", () => json({}));
    const deciding = decide.decidePayload("m3", "accepted");
    expect(store.getState().messages.at(-1)?.payload_decision).toBe("accepted");
    await deciding;
    await decide.decidePayload("m3", "dismissed");
    await decide.decidePayload("m1", "accepted"); // no card: nothing to decide
    expect(store.getState().messages.map((m) => m.payload_decision)).toEqual([null, null, "accepted"]);
    expect(fake.calls.filter((c) => c.url.endsWith("/decision")).map((c) => c.body)).toEqual([{ decision: "accepted" }]);
  });

  it("an approval is sent with its note, and the conversation is shown again with the turn going on", async () => {
    const waiting = withLast(stored({ id: "m3", role: "assistant", content: "", status: "needs_approval", approval }));
    const { fake, store, decisions: decide } = await decisions(waiting);
    fake.on("POST", "/api/chat/approvals/ap1", () => json({ approval_id: "ap1", status: "approved", run_id: "r2" }));
    await decide.decideApproval("ap1", true, "  fine by me ");
    expect(fake.calls.find((c) => c.url.endsWith("/approvals/ap1"))?.body).toEqual({ decision: "approved", note: "fine by me" });
    expect(fake.calls.at(-1)?.url).toMatch(/\/api\/conversations\/c1$/);
    expect(store.getState().error).toBeNull();
  });

  it("an approval that could not be sent says why while the answer still waits", async () => {
    const waiting = withLast(stored({ id: "m3", role: "assistant", content: "", status: "needs_approval", approval }));
    const { fake, store, decisions: decide } = await decisions(waiting);
    fake.on("POST", "/api/chat/approvals/ap1", () => json({ detail: "This approval has expired." }, 409));
    await decide.decideApproval("ap1", false);
    expect(fake.calls.find((c) => c.url.endsWith("/approvals/ap1"))?.body).toEqual({ decision: "denied", note: null });
    expect(store.getState()).toMatchObject({ status: "error", error: { message: "This approval has expired.", retry: "none" } });
    expect(store.getState().messages.at(-1)?.status).toBe("needs_approval");
  });

  it("feedback on an answer of this session's turn goes to its stored message", async () => {
    const { fake, store, stream, api, decisions: decide } = await decisions();
    const sse = new SseResponse(runHeaders("r2"));
    fake.on("POST", "/api/chat/stream", () => sse.response);
    sse.send(1, { type: "cancelled" });
    await stream.start({ type: "send", message: emptyMessage("user-local-1", "user", "More") }, (signal) =>
      api.chatStream({ message: "More", context: {}, conversation_id: "c1", attachments: [] }, signal),
    );
    const answer = store.getState().messages.at(-1);
    expect(answer?.id).toBe("partial-r2");
    fake.always("GET", "/api/conversations/c1", () =>
      json({
        ...storedConversation,
        messages: [
          ...storedConversation.messages,
          stored({ id: "m8", role: "user", content: "More" }),
          stored({ id: "m9", role: "assistant", content: "", status: "cancelled" }),
        ],
      }),
    );
    const rated = { rating: "down" as const, comment: "Too short", updated_at: "2025-01-01T00:00:00Z" };
    fake.on("PUT", "/api/conversations/c1/messages/m9/feedback", () => json(stored({ id: "m9", role: "assistant", content: "", feedback: rated })));
    expect(await decide.setFeedback(answer?.id ?? "", "down", "Too short")).toBe(true);
    expect(fake.calls.at(-1)?.body).toEqual({ rating: "down", comment: "Too short" });
    expect(store.getState().messages.at(-1)).toMatchObject({ id: "m9", feedback: rated });
    fake.on("PUT", "/api/conversations/c1/messages/m9/feedback", () => json({ detail: "down" }, 503));
    expect(await decide.setFeedback("m9", "up")).toBe(false);
    expect(store.getState().messages.at(-1)?.feedback).toEqual(rated);
  });
});
