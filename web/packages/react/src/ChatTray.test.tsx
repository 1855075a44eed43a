// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from "@testing-library/react";
import { StrictMode } from "react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stored, storedConversation } from "../test/fixtures";
import { FakeFetch, json, SseResponse } from "../test/sse-server";
import { createChatApi } from "./api";
import { ChatTray, type ChatTrayProps } from "./ChatTray";
import { Hints } from "./components/Hints";
import { registerPayloadHandler, type PayloadHandler } from "./payloadRegistry";
import type { ConversationDetail, StreamEvent } from "./types";

const runHeaders = { "X-Run-Id": "r1", "X-Conversation-Id": "c1" };
const complete = (message: string, extra: Partial<Extract<StreamEvent, { type: "complete" }>["payload"]> = {}): StreamEvent => ({
  type: "complete",
  payload: {
    message,
    reasoning: null,
    suggested_values: null,
    suggested_actions: null,
    custom_payload: null,
    payloads: [],
    tool_history: [],
    conversation_id: "c1",
    message_id: "m2",
    usage: null,
    warnings: [],
    stop_reason: "end_turn",
    ...extra,
  },
});

function renderTray(props: Partial<ChatTrayProps> = {}, { conversation }: { conversation?: ConversationDetail } = {}) {
  const fake = new FakeFetch();
  const onUnauthorized = vi.fn();
  const api = createChatApi({ getToken: () => "tok", fetch: fake.fetch, onUnauthorized });
  localStorage.setItem("pagechat.open", "true");
  if (conversation) {
    localStorage.setItem("pagechat.conversation", JSON.stringify(conversation.id));
    fake.always("GET", `/api/conversations/${conversation.id}`, () => json(conversation));
  }
  const user = userEvent.setup();
  // StrictMode runs effects twice, as in development: restoring and streaming must survive it.
  const view = render(
    <StrictMode>
      <ChatTray context={{ current_page: "demo" }} getToken={() => "tok"} api={api} welcome="Hello there" {...props} />
    </StrictMode>,
  );
  return { fake, user, onUnauthorized, ...view };
}

const input = () => screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
const log = () => screen.getByRole("log");

/** A payload handler for `proposal` cards: Accept and Reject buttons. */
function proposalHandler(onAccept?: PayloadHandler["onAccept"]): PayloadHandler {
  return {
    render: (_data, callbacks) => (
      <>
        <button type="button" onClick={() => { callbacks.onAccept(); }}>
          Accept
        </button>
        <button type="button" onClick={callbacks.onReject}>
          Reject
        </button>
      </>
    ),
    onAccept: onAccept ?? (() => undefined),
    renderOptions: { headerTitle: "Proposal" },
  };
}

/** The decisions the tray sent, in order: [message id, body]. */
function decisionPosts(fake: FakeFetch): [string, unknown][] {
  return fake.calls
    .filter((c) => c.method === "POST" && c.url.endsWith("/decision"))
    .map((c) => [c.url.split("/").at(-2) ?? "", c.body]);
}

/** A message's "View …" button with the decision shown beside it. */
function viewItem(name: string): HTMLElement {
  const item = screen.getByRole("button", { name }).closest<HTMLElement>(".pc-payload-view-item");
  if (item === null) throw new Error(`no view item for ${name}`);
  return item;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ChatTray", () => {
  it("opens and closes from its button, keeping focus sensible", async () => {
    const { user } = renderTray();
    expect(document.activeElement).toBe(input());
    await user.click(screen.getByRole("button", { name: "Close chat" }));
    expect(screen.queryByRole("log")).toBeNull();
    const launcher = screen.getByRole("button", { name: /Assistant/ });
    expect(document.activeElement).toBe(launcher);
    await user.click(launcher);
    expect(document.activeElement).toBe(input());
  });

  it("shows the reasoning live as Thinking…, then collapsed as Thought for N s under the answer", async () => {
    const { fake, user } = renderTray();
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.type(input(), "What is CRISPR?{Enter}");

    stream.send(1, { type: "status", message: "Thinking..." });
    stream.send(2, { type: "reasoning", text: "The user asks " });
    stream.send(3, { type: "reasoning", text: "about gene editing." });
    expect(await within(log()).findByText("The user asks about gene editing.")).toBeTruthy();
    expect(within(log()).getByRole("status").textContent).toBe("Thinking…");

    stream.send(4, { type: "text_delta", text: "It edits genes." });
    stream.send(5, complete("It edits genes.", { reasoning: { text: "The user asks about gene editing.", seconds: 6.2 } }));
    const summary = await within(log()).findByText("Thought for 6 s");
    const details = summary.closest("details");
    expect(details?.open).toBe(false);
    expect(log().querySelector('[data-status="reasoning"]')).toBeNull();
    await user.click(summary);
    expect(details?.open).toBe(true);
    expect(details?.textContent).toContain("The user asks about gene editing.");
  });

  it("goes from welcome to user bubble, thinking, streaming text and the final message", async () => {
    const { fake, user } = renderTray();
    expect(within(log()).getByText("Hello there")).toBeTruthy();
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.type(input(), "Hi there{Enter}");
    expect(input().value).toBe("");
    expect(document.activeElement).toBe(input());
    expect(fake.calls[0]?.body).toEqual({ message: "Hi there", context: { current_page: "demo" }, conversation_id: null, attachments: [] });
    const userBubble = within(log()).getByText("Hi there").closest("[data-role]");
    expect(userBubble?.getAttribute("data-role")).toBe("user");
    expect(screen.queryByText("Hello there")).toBeNull();

    stream.send(1, { type: "status", message: "Thinking..." });
    expect(await within(log()).findByText("Thinking...")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Stop" })).toBeTruthy();

    stream.send(2, { type: "text_delta", text: "Hello **wor" });
    const streaming = await waitFor(() => {
      const el = log().querySelector('[data-status="streaming"]');
      if (el === null) throw new Error("no streaming message");
      return el;
    });
    expect(streaming.textContent).toContain("Hello wor");
    expect(screen.queryByText("Thinking...")).toBeNull();

    stream.send(3, { type: "text_delta", text: "ld**" });
    stream.send(4, complete("Hello **world**"));
    await waitFor(() => {
      expect(log().querySelector('[data-status="streaming"]')).toBeNull();
    });
    const final = log().querySelector('[data-role="assistant"][data-status="complete"]');
    expect(final?.querySelector("strong")?.textContent).toBe("world");
    expect(screen.getByRole("button", { name: "Send" })).toBeTruthy();
    expect(localStorage.getItem("pagechat.conversation")).toBe('"c1"');
  });

  it("says when an answer was cut off by the length limit, and Continue goes on with the same answer", async () => {
    const { fake, user } = renderTray();
    const first = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => first.response);
    await user.type(input(), "Tell me everything{Enter}");
    first.send(1, { type: "text_delta", text: "A long answer that" });
    first.send(2, complete("A long answer that", { stop_reason: "max_tokens" }));
    const note = await within(log()).findByRole("note");
    expect(note.textContent).toContain("Cut off: the answer reached its length limit.");

    const second = new SseResponse({ ...runHeaders, "X-Run-Id": "r2" });
    fake.on("POST", "/api/conversations/c1/messages/m2/continue", () => second.response);
    await user.click(within(note).getByRole("button", { name: "Continue" }));
    expect(fake.calls.at(-1)?.url).toContain("/api/conversations/c1/messages/m2/continue");
    second.send(1, { type: "text_delta", text: " goes on to its end." });
    await waitFor(() => {
      expect(log().textContent).toContain("A long answer that goes on to its end.");
    });
    second.send(2, complete("A long answer that goes on to its end."));
    await waitFor(() => {
      expect(within(log()).queryAllByRole("note")).toHaveLength(0);
    });
    expect(log().querySelectorAll('[data-role="assistant"]')).toHaveLength(1);
  });

  it("keeps the amber tool card with its progress visible while text streams", async () => {
    const { fake, user } = renderTray();
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.type(input(), "search{Enter}");
    stream.send(1, { type: "tool_start", tool: "search_pubmed", input: { q: "x" }, tool_use_id: "t1" });
    stream.send(2, { type: "tool_progress", tool: "search_pubmed", stage: "s", message: "Fetched 3 of 5", progress: 0.6, data: null });
    stream.send(3, { type: "text_delta", text: "While I search" });
    const card = await screen.findByRole("status", { name: "Running search_pubmed" });
    expect(within(card).getByText("Fetched 3 of 5")).toBeTruthy();
    expect(within(card).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("60");
    expect(await within(log()).findByText("While I search")).toBeTruthy();
    stream.send(4, { type: "tool_complete", tool: "search_pubmed", index: 0, is_error: false, output: "Found 5 articles: ...", payload: null, approval: null, usage: null, changes: null });
    stream.send(5, { type: "text_delta", text: "[[tool:0]]" });
    await waitFor(() => {
      expect(screen.queryByRole("status", { name: "Running search_pubmed" })).toBeNull();
    });
    expect(within(log()).getByRole("button", { name: /search_pubmed/ })).toBeTruthy();
  });

  it("Shift+Enter adds a line instead of sending", async () => {
    const { fake, user } = renderTray();
    await user.type(input(), "one{Shift>}{Enter}{/Shift}two");
    expect(input().value).toBe("one\ntwo");
    expect(fake.calls).toHaveLength(0);
  });

  it("Esc stops a running answer, which stays as a stopped message", async () => {
    const { fake, user } = renderTray();
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    fake.on("POST", "/api/chat/runs/r1/cancel", () => {
      stream.send(3, { type: "cancelled" });
      return json({}, 202);
    });
    await user.type(input(), "long{Enter}");
    stream.send(1, { type: "text_delta", text: "Partial answer" });
    expect(await within(log()).findByText("Partial answer")).toBeTruthy();
    await user.keyboard("{Escape}");
    expect(await within(log()).findByText("Stopped")).toBeTruthy();
    expect(log().querySelector('[data-status="cancelled"]')?.textContent).toContain("Partial answer");
    expect(fake.calls.some((c) => c.url === "/api/chat/runs/r1/cancel")).toBe(true);
  });

  it("shows a run error with the partial text and a Retry that sends again", async () => {
    const { fake, user } = renderTray();
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.type(input(), "hi{Enter}");
    stream.send(1, { type: "text_delta", text: "Half" });
    stream.send(2, { type: "error", message: "The model is overloaded.", code: "overloaded" });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The model is overloaded.");
    expect(within(log()).getByText("Half")).toBeTruthy();
    const again = new SseResponse({ "X-Run-Id": "r2", "X-Conversation-Id": "c1" });
    fake.on("POST", "/api/chat/stream", () => again.response);
    again.send(1, complete("Whole"));
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await within(log()).findByText("Whole")).toBeTruthy();
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "hi", conversation_id: "c1" });
  });

  it("tells the host about a 401", async () => {
    const { fake, user, onUnauthorized } = renderTray();
    fake.on("POST", "/api/chat/stream", () => json({ detail: "Invalid or expired token" }, 401));
    await user.type(input(), "hi{Enter}");
    await waitFor(() => {
      expect(onUnauthorized).toHaveBeenCalled();
    });
  });
});

const choicesText =
  'Which?\n\n```choices\n{"question":"Which source?","options":[{"label":"RSS feed","value":"rss"},{"label":"Agentic","value":"agentic"}]}\n```';

describe("ChatTray with a stored conversation", () => {
  it("after a reload, an answer's reasoning shows collapsed with its stored duration", async () => {
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [
        stored({ id: "m1", role: "user", content: "What is CRISPR?" }),
        stored({
          id: "m2",
          role: "assistant",
          content: "It edits genes.",
          reasoning: { text: "The user asks about gene editing.", seconds: 6.2 },
        }),
      ],
    };
    const { user } = renderTray({}, { conversation });
    const summary = await within(log()).findByText("Thought for 6 s");
    await user.click(summary);
    expect(summary.closest("details")?.textContent).toContain("The user asks about gene editing.");
  });

  it("after a reload, choices already answered are disabled and the open ones still work", async () => {
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [
        stored({ id: "m1", role: "user", content: "start" }),
        stored({ id: "m2", role: "assistant", content: choicesText }),
        stored({ id: "m3", role: "user", content: "agentic" }),
        stored({ id: "m4", role: "assistant", content: choicesText.replace("Which source?", "Which again?") }),
      ],
    };
    const { fake, user } = renderTray({}, { conversation });
    const answered = await screen.findByRole("group", { name: "Which source?" });
    for (const button of within(answered).getAllByRole<HTMLButtonElement>("button")) expect(button.disabled).toBe(true);
    expect(within(answered).getByRole("button", { name: "Agentic" }).hasAttribute("data-selected")).toBe(true);

    const open = screen.getByRole("group", { name: "Which again?" });
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.click(within(open).getByRole("button", { name: "RSS feed" }));
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "rss", conversation_id: "c1" });
    for (const button of within(open).getAllByRole<HTMLButtonElement>("button")) expect(button.disabled).toBe(true);
    expect(document.activeElement).toBe(input());
  });

  it("suggested values send their value; older ones are disabled", async () => {
    const chips = [{ label: "Yes please", value: "yes, go ahead" }];
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [
        stored({ id: "m1", role: "assistant", content: "Old", suggested_values: [{ label: "Old chip", value: "old" }] }),
        stored({ id: "m2", role: "user", content: "next" }),
        stored({ id: "m3", role: "assistant", content: "Proceed?", suggested_values: chips }),
      ],
    };
    const { fake, user } = renderTray({}, { conversation });
    const chip = await screen.findByRole<HTMLButtonElement>("button", { name: "Yes please" });
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Old chip" }).disabled).toBe(true);
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.click(chip);
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "yes, go ahead" });
    expect(within(log()).getByText("yes, go ahead")).toBeTruthy();
  });

  it("opens a proposal the page can accept in the panel, drawn by the global card with the page's actions, and accepts it", async () => {
    const unregister = registerPayloadHandler("proposal", {
      render: (data, { onAccept: accept, canAccept }) =>
        canAccept && (
          <button type="button" onClick={() => { accept(); }}>
            Accept {(data as { name: string }).name}
          </button>
        ),
    });
    registerPayloadHandler("note", { render: () => <p>note card</p>, renderOptions: { headerTitle: "Note" } });
    const onAccept = vi.fn();
    const payload = { type: "proposal", data: { name: "New name" } };
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [
        stored({ id: "m1", role: "assistant", content: "A note", custom_payload: { type: "note", data: {} } }),
        stored({ id: "m2", role: "assistant", content: "Here is a proposal", custom_payload: payload, payloads: [payload] }),
      ],
    };
    const { fake, user } = renderTray(
      {
        // The page adds only what it does with the card (and where the panel goes).
        payloadHandlers: { proposal: { onAccept, renderOptions: { headerTitle: "Proposal", headerIcon: "📋", panelWidth: "333px" } } },
        context: { current_page: "demo", n: 1 },
      },
      { conversation },
    );
    fake.always("POST", "/api/conversations/c1/messages/m2/decision", () => json({}));
    fake.always("POST", "/api/conversations/c1/messages/m1/decision", () => json({}));
    const panel = await screen.findByRole("complementary", { name: "Proposal" });
    expect(panel.style.width).toBe("333px");
    await user.click(within(panel).getByRole("button", { name: "Accept New name" }));
    expect(onAccept).toHaveBeenCalledWith(
      { name: "New name" },
      { current_page: "demo", n: 1 },
      expect.objectContaining({ conversationId: "c1", messageId: "m2" }),
    );
    expect(screen.queryByRole("complementary", { name: "Proposal" })).toBeNull();
    expect(decisionPosts(fake)).toEqual([["m2", { decision: "accepted" }]]);
    expect(viewItem("View Proposal").getAttribute("data-decision")).toBe("accepted");
    expect(viewItem("View Proposal").textContent).toContain("Accepted");

    await user.click(screen.getByRole("button", { name: "View Note" }));
    expect(within(screen.getByRole("complementary", { name: "Note" })).getByText("note card")).toBeTruthy();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("complementary", { name: "Note" })).toBeNull();
    // The note only informs: closing it is recorded as such, and the accept stays.
    expect(decisionPosts(fake)).toEqual([
      ["m2", { decision: "accepted" }],
      ["m1", { decision: "dismissed" }],
    ]);
    expect(viewItem("View Proposal").getAttribute("data-decision")).toBe("accepted");
    unregister();
  });

  it("a result that only informs stays in the conversation until View opens it, the same on every page", async () => {
    const unregister = registerPayloadHandler("results", { render: () => <p>ten results</p>, renderOptions: { headerTitle: "Results" } });
    const payload = { type: "results", data: {} };
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [stored({ id: "m2", role: "assistant", content: "Found ten", custom_payload: payload, payloads: [payload] })],
    };
    // Another page's handlers: none for this card, which the global registry draws anyway.
    const { user } = renderTray({ payloadHandlers: { other: { onAccept: () => undefined } } }, { conversation });
    const view = await screen.findByRole("button", { name: "View Results" });
    expect(screen.queryByRole("complementary", { name: "Results" })).toBeNull();
    await user.click(view);
    expect(within(screen.getByRole("complementary", { name: "Results" })).getByText("ten results")).toBeTruthy();
    unregister();
  });

  it("after a reload, a card already decided stays closed and shows the decision; View still opens it", async () => {
    const payload = { type: "proposal", data: { name: "New name" } };
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [
        stored({ id: "m1", role: "user", content: "propose" }),
        stored({ id: "m2", role: "assistant", content: "Here it is", custom_payload: payload, payload_decision: "rejected" }),
      ],
    };
    const { fake, user } = renderTray({ payloadHandlers: { proposal: proposalHandler() } }, { conversation });
    expect(await within(log()).findByText("Here it is")).toBeTruthy();
    expect(screen.queryByRole("complementary", { name: "Proposal" })).toBeNull();
    expect(viewItem("View Proposal").getAttribute("data-decision")).toBe("rejected");
    expect(viewItem("View Proposal").textContent).toContain("Rejected");

    await user.click(screen.getByRole("button", { name: "View Proposal" }));
    expect(screen.getByRole("complementary", { name: "Proposal" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Close panel" }));
    expect(screen.queryByRole("complementary", { name: "Proposal" })).toBeNull();
    // Closing it again does not undo the rejection.
    expect(decisionPosts(fake)).toEqual([]);
    expect(viewItem("View Proposal").getAttribute("data-decision")).toBe("rejected");
  });

  it("a live answer's card opens, and rejecting it is recorded on the answer the server stored", async () => {
    const { fake, user } = renderTray({ payloadHandlers: { proposal: proposalHandler() } });
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    fake.always("POST", "/api/conversations/c1/messages/m2/decision", () => json({}));
    await user.type(input(), "propose{Enter}");
    const payload = { type: "proposal", data: { name: "Live" } };
    stream.send(1, complete("Here it is", { custom_payload: payload, payloads: [payload] }));
    const panel = await screen.findByRole("complementary", { name: "Proposal" });
    await user.click(within(panel).getByRole("button", { name: "Reject" }));
    expect(screen.queryByRole("complementary", { name: "Proposal" })).toBeNull();
    expect(decisionPosts(fake)).toEqual([["m2", { decision: "rejected" }]]);
    expect(viewItem("View Proposal").getAttribute("data-decision")).toBe("rejected");
  });

  it("a card's accept applies through a server action recorded in the conversation, like a chat button's", async () => {
    const payload = { type: "proposal", data: { name: "New name" } };
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [stored({ id: "m2", role: "assistant", content: "Here it is", custom_payload: payload })],
    };
    const applied: unknown[] = [];
    const handler = proposalHandler((data, _context, chatOf) => {
      void chatOf.runAction("apply_proposal", data as Record<string, unknown>).then((result) => applied.push(result));
    });
    const { fake, user } = renderTray({ payloadHandlers: { proposal: handler } }, { conversation });
    fake.always("POST", "/api/conversations/c1/messages/m2/decision", () => json({}));
    fake.on("POST", "/api/chat/actions", () => json({ action: "apply_proposal", ok: true, message: "Renamed it", data: null }));
    await user.click(within(await screen.findByRole("complementary", { name: "Proposal" })).getByRole("button", { name: "Accept" }));

    expect(await within(log()).findByText("Renamed it")).toBeTruthy();
    expect(fake.calls.find((c) => c.url === "/api/chat/actions")?.body).toEqual({
      conversation_id: "c1",
      action: "apply_proposal",
      data: { name: "New name" },
      context: { current_page: "demo" },
    });
    expect(applied).toEqual([{ action: "apply_proposal", ok: true, message: "Renamed it", data: null }]);
    expect(log().querySelector('[data-role="action"]')).not.toBeNull();
  });

  it("runs client actions (close_chat built in) and shows server actions' results", async () => {
    const setPriority = vi.fn();
    const conversation: ConversationDetail = {
      ...storedConversation,
      messages: [
        stored({
          id: "m1",
          role: "assistant",
          content: "Done?",
          suggested_actions: [
            { label: "Make it high", action: "set_priority", handler: "client", data: { priority: "high" }, style: "primary" },
            { label: "Apply", action: "apply", handler: "server", data: { id: 7 }, style: null },
            { label: "Elsewhere", action: "not_here", handler: "client", data: null, style: null },
            { label: "Close", action: "close_chat", handler: "client", data: null, style: "secondary" },
          ],
        }),
      ],
    };
    const { fake, user } = renderTray({ clientActions: { set_priority: setPriority } }, { conversation });
    await user.click(await screen.findByRole("button", { name: "Make it high" }));
    expect(setPriority).toHaveBeenCalledWith({ priority: "high" }, expect.objectContaining({ context: { current_page: "demo" } }));
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Elsewhere" }).disabled).toBe(true);
    fake.on("POST", "/api/chat/actions", () => json({ action: "apply", ok: true, message: "Applied 7", data: null }));
    await user.click(screen.getByRole("button", { name: "Apply" }));
    expect(await within(log()).findByText("Applied 7")).toBeTruthy();
    expect(fake.calls.at(-1)?.body).toEqual({ conversation_id: "c1", action: "apply", data: { id: 7 }, context: { current_page: "demo" } });
    await user.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("log")).toBeNull();
  });

  it("lists conversations to switch, rename and delete", async () => {
    const { fake, user } = renderTray();
    const other: ConversationDetail = { ...storedConversation, id: "c2", title: "Other talk", messages: [stored({ id: "x", role: "user", content: "from c2" })] };
    fake.on("GET", "/api/conversations", () =>
      json({
        items: [storedConversation, other].map((c) => ({ id: c.id, title: c.title, created_at: c.created_at, updated_at: c.updated_at })),
        total: 2,
        offset: 0,
        limit: 100,
      }),
    );
    await user.click(screen.getByRole("button", { name: "Conversations" }));
    const nav = await screen.findByRole("navigation", { name: "Conversations" });
    expect(await within(nav).findByText("Other talk")).toBeTruthy();

    fake.on("PATCH", "/api/conversations/c1", () => json({ ...storedConversation, title: "Renamed" }));
    await user.click(within(nav).getByRole("button", { name: "Rename CRISPR" }));
    const title = within(nav).getByRole<HTMLInputElement>("textbox", { name: "Conversation title" });
    await user.clear(title);
    await user.type(title, "Renamed{Enter}");
    expect(await within(nav).findByText("Renamed")).toBeTruthy();
    expect(fake.calls.at(-1)?.body).toEqual({ title: "Renamed" });

    fake.on("DELETE", "/api/conversations/c1", () => new Response(null, { status: 204 }));
    await user.click(within(nav).getByRole("button", { name: "Delete Renamed" }));
    await user.click(within(nav).getByRole("button", { name: "Delete" }));
    await waitFor(() => {
      expect(within(nav).queryByText("Renamed")).toBeNull();
    });

    fake.on("GET", "/api/conversations/c2", () => json(other));
    await user.click(within(nav).getByText("Other talk"));
    expect(await within(log()).findByText("from c2")).toBeTruthy();
  });

  it("remembers its width", async () => {
    const { user } = renderTray();
    const handle = screen.getByRole("separator", { name: "Resize chat" });
    const before = Number(handle.getAttribute("aria-valuenow"));
    handle.focus();
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(Number(handle.getAttribute("aria-valuenow"))).toBe(before + 48);
    await act(async () => {
      await Promise.resolve();
    });
    expect(localStorage.getItem("pagechat.width")).toBe(String(before + 48));
  });

  it("Esc in the message box closes the tray and gives the focus back; Ctrl+/ opens it from the page", async () => {
    const { user } = renderTray();
    input().focus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("complementary", { name: "Assistant" })).toBeNull();
    const launcher = screen.getByRole("button", { name: "Assistant" });
    expect(document.activeElement).toBe(launcher);
    expect(launcher.getAttribute("aria-keyshortcuts")).toContain("Control+/");
    launcher.blur();
    await user.keyboard("{Control>}/{/Control}");
    expect(screen.getByRole("complementary", { name: "Assistant" })).toBeTruthy();
    expect(document.activeElement).toBe(input());
  });

  it("a welcome's hints are buttons that send their text as the first message", async () => {
    const { fake, user } = renderTray({ welcome: <Hints hints={["Summarise this page", "What changed?"]} /> });
    const stream = new SseResponse(runHeaders);
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.click(within(screen.getByRole("group", { name: "Try" })).getByRole("button", { name: "What changed?" }));
    expect(fake.calls.find((c) => c.url === "/api/chat/stream")?.body).toMatchObject({ message: "What changed?" });
    stream.send(1, complete("Nothing yet."));
    expect(await within(log()).findByText("Nothing yet.")).toBeTruthy();
    expect(screen.queryByRole("group", { name: "Try" })).toBeNull();
  });
});
