// A real Horizon server (e2e/horizon_server.py) for the specs that look at Horizon's pages:
// one per worker, signed in as the demo account.
import { resolve } from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { Chat } from "./fixtures";
import { startPythonServer, webRoot } from "./servers";

export const DEMO = { email: "demo@example.com", password: "demo" };

export const test = base.extend<object, { horizonUrl: string }>({
  horizonUrl: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      const server = await startPythonServer("horizon_server.py", ["--static", resolve(webRoot, "dist")], {
        name: "the Horizon server",
        timeoutMs: 60_000,
        graceMs: 10_000,
      });
      await provide(server.url);
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ horizonUrl }, provide) => {
    await provide(horizonUrl);
  },
});

export async function signIn(page: Page): Promise<void> {
  await page.goto("/");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Research streams" })).toBeVisible();
}

/** Opens the tray unless it is open, and waits for the message box to have focus. */
export async function openTray(page: Page): Promise<Chat> {
  const chat = new Chat(page);
  if ((await chat.tray.count()) === 0) await page.getByRole("button", { name: /Assistant/ }).click();
  await expect(chat.input).toBeFocused();
  return chat;
}

export { expect };
