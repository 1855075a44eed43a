// The AI SDK example (web/examples/ai-sdk): a React app built on `useChat` and
// `DefaultChatTransport` from the pinned `ai` and `@ai-sdk/react`, against a real pagechat
// (e2e/ai_sdk_server.py) serving its build (`npm run build -w pagechat-example-ai-sdk`).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { shot } from "./fixtures";
import { startPythonServer, webRoot, type PythonServer } from "./servers";

const dist = resolve(webRoot, "examples/ai-sdk/dist");

const test = base.extend<object, { server: PythonServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      if (!existsSync(resolve(dist, "index.html"))) throw new Error("the example is not built: run `npm run build -w pagechat-example-ai-sdk`");
      const server = await startPythonServer("ai_sdk_server.py", ["--static", dist], {
        name: "the AI SDK example's server",
        timeoutMs: 60_000,
        graceMs: 10_000,
      });
      await provide(server);
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ server }, provide) => {
    await provide(server.url);
  },
});

let chats = 0;

/** Signs in (pagechat's session cookie) and opens a new chat of the example. */
async function open(page: Page, { resumable = false } = {}): Promise<string> {
  const login = await page.request.post("/api/auth/login", {
    data: { email: "ai-sdk@example.com", password: "correct horse battery staple" },
  });
  expect(login.ok()).toBe(true);
  chats += 1;
  const chat = `e2e${String(Date.now())}x${String(chats)}`;
  await page.goto(`/?chat=${chat}${resumable ? "&resumable=1" : ""}`);
  await expect(page.getByRole("heading", { name: "useChat on pagechat" })).toBeVisible();
  return chat;
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

function answers(page: Page) {
  return page.getByRole("article", { name: "Answer" });
}

async function upstream(page: Page): Promise<{ opened: number; closed_early: number }> {
  return (await (await page.request.get("/__e2e__/upstream")).json()) as { opened: number; closed_early: number };
}

async function stored(page: Page, chat: string): Promise<{ status: string; content: string }[]> {
  const response = await page.request.get(`/api/conversations/${chat}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { messages: { status: string; content: string }[] }).messages;
}

test("an answer streams into the chat", async ({ page }) => {
  await open(page);
  await send(page, "hello there");
  await expect(page.getByRole("article", { name: "Question" })).toHaveText("hello there");
  await expect(answers(page).last()).toHaveText("You said: hello there");
  await expect(page.getByTestId("status")).toHaveText("ready");
  await shot(page, "ai-sdk-01-answer");
});

test("a tool call shows its input and its output", async ({ page }) => {
  await open(page);
  await send(page, "search the archive");
  const tool = page.getByLabel("Tool search_archive");
  await expect(tool.getByLabel("Input")).toHaveText('{"query":"invoices"}');
  await expect(tool.getByLabel("Output")).toHaveText("3 results for invoices");
  await expect(answers(page).last()).toContainText("The archive has 3 results.");
  await shot(page, "ai-sdk-02-tool");
});

test("a payload arrives as a typed data part and renders as a card", async ({ page }) => {
  await open(page);
  await send(page, "an entry please");
  await expect(page.getByLabel("Entry")).toHaveText("Office rent: 1200.00");
  // The suggested value is a data part too: a chip that sends its value.
  await expect(page.getByTestId("status")).toHaveText("ready");
  await page.getByRole("button", { name: "Book it" }).click();
  await expect(answers(page).last()).toHaveText("You said: yes, book it");
  await shot(page, "ai-sdk-03-payload");
});

test("one approval approved and another denied", async ({ page }) => {
  const chat = await open(page);
  await send(page, "delete 7");
  const first = page.getByLabel("Tool delete_item").first();
  await expect(first).toContainText("Deleting cannot be undone.");
  await first.getByRole("button", { name: "Approve" }).click();
  await expect(first.getByLabel("Output")).toHaveText("Deleted item 7.");
  await expect(answers(page).last()).toContainText("It is gone.");

  await send(page, "delete 8");
  const second = page.getByLabel("Tool delete_item").nth(1);
  await second.getByRole("button", { name: "Deny" }).click();
  await expect(second).toContainText("Denied");
  await expect(answers(page).last()).toContainText("Kept item 8.");
  await expect.poll(async () => (await stored(page, chat)).map((m) => m.status)).toEqual(["complete", "complete", "complete", "complete"]);
  await shot(page, "ai-sdk-04-approvals");
});

test("an approval waits through a reload, and its answer goes on once approved", async ({ page }) => {
  const chat = await open(page);
  await send(page, "delete 9");
  await expect(page.getByLabel("Tool delete_item")).toContainText("Deleting cannot be undone.");

  await page.reload();
  // Rebuilt from pagechat's history: the request is the stored one.
  const waiting = page.getByLabel("Tool delete_item");
  await expect(waiting).toContainText("approval-requested");
  await waiting.getByRole("button", { name: "Approve" }).click();
  await expect(waiting.getByLabel("Output")).toHaveText("Deleted item 9.");
  await expect(answers(page).last()).toContainText("It is gone.");
  await expect.poll(async () => (await stored(page, chat)).at(-1)?.status).toBe("complete");
});

test("the app's own tool runs in the browser and its output finishes the answer", async ({ page }) => {
  const chat = await open(page);
  await send(page, "what is the title?");
  const tool = page.getByLabel("Tool read_title");
  await expect(tool.getByLabel("Output")).toHaveText("useChat on pagechat");
  await expect(answers(page).last()).toContainText("The page is called useChat on pagechat.");
  // Stored once the answer's end is written, which may trail its last words on screen.
  await expect.poll(async () => (await stored(page, chat)).at(-1)?.status).toBe("complete");
});

test("a call of the app's tool waits through a reload, and runs again once the page is back", async ({ page }) => {
  const chat = await open(page);
  // The page goes away before the tool's output reaches the server.
  let held = 0;
  await page.route("**/api/ai-sdk/desk", async (route) => {
    if (route.request().postData()?.includes("output-available")) {
      held += 1;
      await route.abort();
    } else await route.continue();
  });
  await send(page, "what is the title?");
  await expect.poll(() => held).toBe(1);
  await expect.poll(async () => (await stored(page, chat)).at(-1)?.status).toBe("needs_approval");
  await page.unroute("**/api/ai-sdk/desk");

  await page.reload();
  const tool = page.getByLabel("Tool read_title");
  await expect(tool.getByLabel("Output")).toHaveText("useChat on pagechat");
  await expect(answers(page).last()).toContainText("The page is called useChat on pagechat.");
  await expect.poll(async () => (await stored(page, chat)).at(-1)?.status).toBe("complete");
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
});

test("stop() stops the upstream model request", async ({ page }) => {
  const chat = await open(page);
  const before = await upstream(page);
  await send(page, "a long answer");
  await expect(answers(page).last()).toContainText("Word 3.");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByTestId("status")).toHaveText("ready");
  await expect.poll(async () => (await upstream(page)).closed_early).toBe(before.closed_early + 1);
  await expect.poll(async () => (await stored(page, chat)).at(-1)?.status).toBe("cancelled");
  expect((await stored(page, chat)).at(-1)?.content).not.toContain("Word 199.");
});

test("with resumable streams a reload resumes the answer and the stop route stops it", async ({ page }) => {
  const chat = await open(page, { resumable: true });
  const before = await upstream(page);
  await send(page, "a long answer");
  await expect(answers(page).last()).toContainText("Word 3.");

  await page.reload();
  // The question from pagechat's history, the running answer streamed again from its start.
  await expect(page.getByRole("article", { name: "Question" })).toHaveText("a long answer");
  await expect(answers(page).last()).toContainText("Word 30.");
  const text = (await answers(page).last().textContent()) ?? "";
  expect(text.startsWith("Word 1. Word 2. ")).toBe(true);
  expect(text.match(/Word 2\. /g)?.length).toBe(1);
  expect((await upstream(page)).closed_early).toBe(before.closed_early); // the reload stopped nothing
  await shot(page, "ai-sdk-05-resumed");

  await page.getByRole("button", { name: "Stop" }).click();
  await expect.poll(async () => (await upstream(page)).closed_early).toBe(before.closed_early + 1);
  await expect.poll(async () => (await stored(page, chat)).at(-1)?.status).toBe("cancelled");
});
