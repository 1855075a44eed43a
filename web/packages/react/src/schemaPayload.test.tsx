// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { StrictMode } from "react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stored, storedConversation } from "../test/fixtures";
import { FakeFetch, json } from "../test/sse-server";
import { createChatApi } from "./api";
import { ChatTray, type ChatTrayProps } from "./ChatTray";
import { registerPayloadHandler } from "./payloadRegistry";
import type { ConversationDetail, CustomPayload } from "./types";

const RECIPE_SCHEMA = {
  title: "Recipe",
  type: "object",
  properties: {
    name: { title: "Name", type: "string" },
    source: { title: "Source", type: "string", format: "uri" },
    ingredients: {
      title: "Ingredients",
      type: "array",
      items: { type: "object", properties: { item: { title: "Item", type: "string" }, grams: { title: "Grams", type: "number" } } },
    },
  },
};
const RECIPE: CustomPayload = {
  type: "recipe",
  data: { name: "Pancakes", source: "https://example.org/p", ingredients: [{ item: "Flour", grams: 250 }] },
};
const CATALOG = {
  payload_types: {
    recipe: { schema: RECIPE_SCHEMA, title: "Recipe", pages: ["recipes"], accept_actions: { recipes: "save_recipe" } },
  },
};

function renderTray(payload: CustomPayload, props: Partial<ChatTrayProps> = {}) {
  const fake = new FakeFetch();
  const api = createChatApi({ getToken: () => "tok", fetch: fake.fetch });
  const conversation: ConversationDetail = {
    ...storedConversation,
    messages: [stored({ id: "m2", role: "assistant", content: "Here it is", custom_payload: payload, payloads: [payload] })],
  };
  localStorage.setItem("pagechat.open", "true");
  localStorage.setItem("pagechat.conversation", JSON.stringify(conversation.id));
  fake.always("GET", `/api/conversations/${conversation.id}`, () => json(conversation));
  fake.always("GET", "/api/payload-types", () => json(CATALOG));
  fake.always("POST", "/api/conversations/c1/messages/m2/decision", () => json({}));
  const user = userEvent.setup();
  render(
    <StrictMode>
      <ChatTray context={{ current_page: "recipes" }} getToken={() => "tok"} api={api} {...props} />
    </StrictMode>,
  );
  return { fake, user };
}

describe("the schema card", () => {
  it("shows a payload with no card from its schema, and Accept runs the page's accept action", async () => {
    const { fake, user } = renderTray(RECIPE);
    fake.on("POST", "/api/chat/actions", () => json({ action: "save_recipe", ok: true, message: "Saved Pancakes", data: null }));
    // The page accepts it, so it opens by itself as a proposal.
    const panel = await screen.findByRole("complementary", { name: "Recipe" });
    const card = within(panel).getByRole("article", { name: "Recipe" });
    expect(within(card).getByText("Pancakes")).toBeTruthy();
    const link = within(card).getByRole("link", { name: "https://example.org/p" });
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    const table = within(card).getByRole("table");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Item", "Grams"]);
    expect(within(table).getByRole("cell", { name: "Flour" })).toBeTruthy();

    await user.click(within(card).getByRole("button", { name: "Accept" }));
    expect(await within(screen.getByRole("log")).findByText("Saved Pancakes")).toBeTruthy();
    expect(fake.calls.find((c) => c.url === "/api/chat/actions")?.body).toEqual({
      conversation_id: "c1",
      action: "save_recipe",
      data: RECIPE.data,
      context: { current_page: "recipes" },
    });
    expect(fake.calls.filter((c) => c.url === "/api/payload-types")).toHaveLength(1);
  });

  it("only informs on a page with no accept action for it: View opens it, with no Accept", async () => {
    const { user } = renderTray({ type: "timer", data: { minutes: 5 } });
    await user.click(await screen.findByRole("button", { name: "View Timer" }));
    const card = within(screen.getByRole("complementary", { name: "Timer" })).getByRole("article", { name: "Timer" });
    expect(within(card).getByText("Minutes")).toBeTruthy();
    expect(within(card).getByText("5")).toBeTruthy();
    expect(within(card).queryByRole("button", { name: "Accept" })).toBeNull();
  });

  it("gives way to a registered card, which the accept action still accepts", async () => {
    const unregister = registerPayloadHandler("recipe", {
      render: (data, callbacks) => (
        <button type="button" onClick={() => { callbacks.onAccept(); }}>
          Cook {(data as { name: string }).name}
        </button>
      ),
      renderOptions: { headerTitle: "My recipe" },
    });
    try {
      const { fake, user } = renderTray(RECIPE);
      fake.on("POST", "/api/chat/actions", () => json({ action: "save_recipe", ok: true, message: "Saved", data: null }));
      const panel = await screen.findByRole("complementary", { name: "My recipe" });
      expect(within(panel).queryByRole("article")).toBeNull();
      await user.click(within(panel).getByRole("button", { name: "Cook Pancakes" }));
      expect(await within(screen.getByRole("log")).findByText("Saved")).toBeTruthy();
    } finally {
      unregister();
    }
  });

  it("never makes a card of the tray's own payload types", async () => {
    renderTray({ type: "tool_history", data: [] });
    expect(await screen.findByText("Here it is")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^View / })).toBeNull();
  });
});
