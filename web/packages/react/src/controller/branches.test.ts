import { describe, expect, it } from "vitest";
import { stored, storedConversation } from "../../test/fixtures";
import { chatParts, context, delta, runHeaders, until } from "../../test/parts";
import { json, SseResponse } from "../../test/sse-server";
import { emptyMessage } from "../state";
import type { ConversationDetail } from "../types";
import { Branches } from "./branches";

const path = (message: string) => `/api/conversations/c1/messages/${message}`;

/** Branches over a stored conversation already shown. */
async function shown(conversation: ConversationDetail = storedConversation) {
  const parts = chatParts();
  parts.fake.on("GET", "/api/conversations/c1", () => json(conversation));
  await parts.history.show("c1", false);
  return { ...parts, branches: new Branches(parts) };
}

const view = (messages: { role: string; content: string; sibling_position: number; sibling_count: number }[]) =>
  messages.map((m) => `${m.role}: ${m.content} (${String(m.sibling_position)}/${String(m.sibling_count)})`);

describe("Branches", () => {
  it("Regenerate streams a new answer in place of the old one, then shows the stored versions", async () => {
    const { fake, store, branches } = await shown();
    const sse = new SseResponse(runHeaders("r2"));
    fake.on("POST", `${path("m2")}/regenerate`, () => sse.response);
    const regenerating = branches.regenerate("m2");
    await until(() => store.getState().status === "submitted");
    expect(view(store.getState().messages)).toEqual(["user: Find CRISPR papers (1/1)"]);
    sse.send(1, delta("Another answer")).send(2, { type: "cancelled" });
    fake.on("GET", "/api/conversations/c1", () =>
      json({
        ...storedConversation,
        messages: [
          storedConversation.messages[0],
          stored({ id: "m3", role: "assistant", content: "Another answer", sibling_count: 2, sibling_position: 2 }),
        ],
      }),
    );
    await regenerating;
    expect(fake.calls.find((c) => c.url.endsWith("/regenerate"))?.body).toEqual({ context });
    expect(view(store.getState().messages)).toEqual(["user: Find CRISPR papers (1/1)", "assistant: Another answer (2/2)"]);
  });

  it("Edit and resend shows the edited question at once as its next version, and sends it", async () => {
    const { fake, store, branches } = await shown();
    await branches.editAndResend("m1", "  ");
    expect(fake.calls).toHaveLength(1); // an empty edit sends nothing
    const sse = new SseResponse(runHeaders("r2"));
    fake.on("POST", `${path("m1")}/edit`, () => sse.response);
    fake.on("GET", "/api/conversations/c1", () => json(storedConversation));
    const editing = branches.editAndResend("m1", "Find base editing papers");
    await until(() => store.getState().status === "submitted");
    expect(view(store.getState().messages)).toEqual(["user: Find base editing papers (2/2)"]);
    sse.send(1, { type: "cancelled" });
    await editing;
    expect(fake.calls.find((c) => c.url.endsWith("/edit"))?.body).toEqual({ message: "Find base editing papers", context, attachments: [] });
  });

  it("Continue goes on from the stopped answer's text", async () => {
    const stopped = {
      ...storedConversation,
      messages: [storedConversation.messages[0], stored({ id: "m2", role: "assistant", content: "CRISPR is", status: "cancelled" })],
    } as ConversationDetail;
    const { fake, store, branches } = await shown(stopped);
    const sse = new SseResponse(runHeaders("r2"));
    fake.on("POST", `${path("m2")}/continue`, () => sse.response);
    fake.on("GET", "/api/conversations/c1", () => json(stopped));
    const continuing = branches.continueAnswer("m2");
    sse.send(1, delta(" a gene editing tool."));
    await until(() => store.getState().streamingText === "CRISPR is a gene editing tool.");
    expect(view(store.getState().messages)).toEqual(["user: Find CRISPR papers (1/1)"]);
    sse.send(2, { type: "cancelled" });
    await continuing;
  });

  it("choosing a version shows the path the server keeps; a failure says why", async () => {
    const versions = {
      ...storedConversation,
      messages: [storedConversation.messages[0], stored({ id: "m3", role: "assistant", content: "Second", sibling_count: 2, sibling_position: 2 })],
    } as ConversationDetail;
    const { fake, store, branches } = await shown(versions);
    fake.on("PUT", `${path("m3")}/branch`, () => json(storedConversation));
    await branches.selectBranch("m3", 1);
    expect(fake.calls.at(-1)?.body).toEqual({ position: 1 });
    expect(view(store.getState().messages)).toEqual(["user: Find CRISPR papers (1/1)", `assistant: ${storedConversation.messages[1]?.content ?? ""} (1/1)`]);
    fake.on("PUT", `${path("m2")}/branch`, () => json({ detail: "No version 3" }, 422));
    await branches.selectBranch("m2", 3);
    expect(store.getState().error).toMatchObject({ message: "No version 3", retry: "none" });
  });

  it("does nothing while an answer streams", async () => {
    const { fake, store, stream, api, branches } = await shown();
    const sse = new SseResponse(runHeaders("r2"));
    fake.on("POST", "/api/chat/stream", () => sse.response);
    const sending = stream.start({ type: "send", message: emptyMessage("user-local-1", "user", "more") }, (signal) =>
      api.chatStream({ message: "more", context, conversation_id: "c1", attachments: [] }, signal),
    );
    await Promise.all([branches.regenerate("m2"), branches.editAndResend("m1", "other"), branches.selectBranch("m2", 1)]);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual(["GET /api/conversations/c1", "POST /api/chat/stream"]);
    expect(view(store.getState().messages).at(-1)).toBe("user: more (1/1)");
    sse.send(1, { type: "cancelled" });
    await sending;
  });
});
