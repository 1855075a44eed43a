// Shared helpers of the browser tests: a signed-in page with the tray open, and screenshots.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, expect, type Locator, type Page } from "@playwright/test";

export const TOKEN = "e2e-token";
const screenshots = resolve(dirname(fileURLToPath(import.meta.url)), "../test-results/screenshots");
mkdirSync(screenshots, { recursive: true });

export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set: the global setup did not run");
  return url;
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: resolve(screenshots, `${name}.png`) });
}

export class Chat {
  constructor(readonly page: Page) {}

  get tray(): Locator {
    return this.page.getByRole("complementary", { name: "Assistant", exact: true });
  }

  get input(): Locator {
    return this.page.getByRole("textbox", { name: "Message" });
  }

  get log(): Locator {
    return this.page.getByRole("log");
  }

  /** Assistant messages that are final (not the one streaming). */
  get answers(): Locator {
    return this.log.locator('[data-role="assistant"]:not([data-status="streaming"]):not([data-status="thinking"])');
  }

  get streaming(): Locator {
    return this.log.locator('[data-status="streaming"]');
  }

  async send(text: string): Promise<void> {
    await this.input.fill(text);
    await this.input.press("Enter");
  }

  /** Sends and waits for the answer to be final. */
  async ask(text: string): Promise<Locator> {
    // Enter does nothing while an answer runs: wait for the previous one to end.
    await expect(this.page.getByRole("button", { name: "Send" })).toBeVisible();
    const before = await this.answers.count();
    await this.send(text);
    const answer = this.answers.nth(before);
    await expect(answer).toBeVisible();
    await expect(this.page.getByRole("button", { name: "Send" })).toBeVisible();
    return answer;
  }
}

export const test = base.extend<{ chat: Chat }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, provide) => {
    await provide(baseUrl());
  },
  chat: async ({ page }, provide) => {
    // The server's Content-Security-Policy must never block the app itself.
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && message.text().includes("Content Security Policy")) blocked.push(message.text());
    });
    // Signed in as a browser is: the session cookie the login sets (page.request shares them).
    const login = await page.request.post(`${baseUrl()}/api/auth/login`, {
      data: { email: "e2e@example.com", password: "e2e-password" },
    });
    expect(login.ok()).toBe(true);
    await page.addInitScript(() => {
      if (localStorage.getItem("pagechat.open") === null) localStorage.setItem("pagechat.open", "true");
    });
    await page.goto("/");
    const chat = new Chat(page);
    await expect(chat.input).toBeFocused();
    await provide(chat);
    expect(blocked).toEqual([]);
  },
});

export { expect };
