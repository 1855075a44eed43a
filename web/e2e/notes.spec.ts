// The notes example in the web shell: the shell picks it from the server's pages, and a
// note the assistant saves shows as its card (e2e/notes_server.py, examples/notes/app.py).
import { resolve } from "node:path";
import { test as base, expect } from "@playwright/test";
import { Chat, shot } from "./fixtures";
import { startPythonServer, webRoot, type PythonServer } from "./servers";

const test = base.extend<object, { notes: PythonServer }>({
  notes: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      const server = await startPythonServer("notes_server.py", ["--static", resolve(webRoot, "dist")], {
        name: "the notes server",
        timeoutMs: 60_000,
        graceMs: 10_000,
      });
      await provide(server);
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ notes }, provide) => {
    await provide(notes.url);
  },
});

test("a note the assistant saves shows as a note card", async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem("pagechat.open", "true");
  });
  await page.goto("/");
  await page.getByLabel("Email").fill("notes@example.com");
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Notes" })).toBeVisible();

  const answer = await new Chat(page).ask("remember to buy milk");
  await expect(answer).toContainText("Saved it.");
  // A note waits for no decision: it stays in the answer until View opens it.
  await answer.getByRole("button", { name: /^View / }).first().click();
  const card = page.locator('[data-card="note"]');
  await expect(card.getByRole("heading", { name: "Milk" })).toBeVisible();
  await expect(card).toContainText("Buy two litres");
  await shot(page, "notes-01-card");
});
