// The shell's Account and Usage pages in Chromium, against plain pagechat with real
// accounts (e2e/admin_server.py): an admin reads the tokens a user's chat used, the same
// numbers as the API's; anyone else has no Usage link and is refused at its address; a
// password change, sign-out everywhere, and an API key shown once then revoked.
import AxeBuilder from "@axe-core/playwright";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { test as base, expect, type Browser, type Page } from "@playwright/test";
import { Chat, shot } from "./fixtures";
import { startPythonServer, webRoot } from "./servers";

const PASSWORD = "correct horse battery staple";

const test = base.extend<object, { adminUrl: string }>({
  adminUrl: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      const server = await startPythonServer("admin_server.py", ["--static", resolve(webRoot, "dist")], {
        name: "the admin pages' server",
        timeoutMs: 60_000,
        graceMs: 10_000,
      });
      await provide(server.url);
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ adminUrl }, provide) => {
    await provide(adminUrl);
  },
});

test.describe.configure({ mode: "serial" });

/** Signs in with the shell's form; waits for the frame's account link. */
async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("link", { name: email })).toBeVisible();
}

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

const format = (n: number) => n.toLocaleString("en-US");

interface Row {
  user: string | null;
  model: string | null;
  day: string | null;
  purpose: string | null;
  answers: number;
  title_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

test("an admin reads the tokens of a user's chat turn, as the API tells them, and as CSV", async ({ page, browser, baseURL }) => {
  await signIn(page, "user@example.com");
  await page.getByRole("button", { name: /Assistant/ }).click();
  const chat = new Chat(page);
  await expect(chat.input).toBeVisible();
  const answer = await chat.ask("how many tokens is this?");
  await expect(answer).toContainText("You said: how many tokens is this?");

  const admin = await newPage(browser, baseURL);
  await signIn(admin, "admin@example.com");
  // The title call runs after the answer, in a task of its own: its row lands a moment later.
  await expect
    .poll(async () => {
      const rows = ((await (await admin.request.get("/api/admin/usage?by=user")).json()) as { rows: Row[] }).rows;
      return rows.find((r) => r.user === "user@example.com")?.title_calls;
    })
    .toBe(1);

  await admin.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Usage" }).click();
  await expect(admin.getByRole("heading", { name: "Usage" })).toBeVisible();
  const csvHref = await admin.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).not.toBeNull();
  const jsonUrl = (csvHref ?? "").replace("&format=csv", "");
  const report = (await (await admin.request.get(jsonUrl)).json()) as { rows: Row[] };
  const row = report.rows.find((r) => r.user === "user@example.com");
  expect(row).toBeDefined();
  if (row === undefined) return;
  expect(row.answers).toBe(1);
  expect(row.input_tokens).toBeGreaterThan(0);
  const cells = admin.getByRole("table").getByRole("row").filter({ hasText: "user@example.com" }).getByRole("cell");
  await expect(cells).toHaveText([
    "user@example.com",
    row.model ?? "",
    row.day ?? "",
    format(row.answers),
    format(row.title_calls),
    format(row.input_tokens),
    format(row.output_tokens),
    format(row.cache_read_tokens),
    format(row.cache_write_tokens),
  ]);
  await shot(admin, "admin-usage");

  const download = admin.waitForEvent("download");
  await admin.getByRole("link", { name: "Download CSV" }).click();
  const csv = await readFile(await (await download).path(), "utf-8");
  expect(csv.split(/\r?\n/)[0]).toBe("user,model,day,answers,title_calls,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens");
  expect(csv).toContain(`user@example.com,${row.model ?? ""},${row.day ?? ""},1,1,${String(row.input_tokens)},${String(row.output_tokens)}`);

  // By purpose: the title call's tokens apart from the answer's.
  await admin.getByRole("checkbox", { name: "Purpose" }).click();
  for (const name of ["User", "Model", "Day"]) await admin.getByRole("checkbox", { name }).click();
  await expect(admin.getByRole("cell", { name: "Conversation titles" })).toBeVisible();
  await expect(admin.getByRole("cell", { name: "Answers", exact: true })).toBeVisible();
  await admin.context().close();
});

test("anyone else has no Usage link and is refused at its address", async ({ page }) => {
  await signIn(page, "user@example.com");
  const links = page.getByRole("navigation", { name: "Account" });
  await expect(links.getByRole("link", { name: "user@example.com" })).toBeVisible();
  await expect(links.getByRole("link", { name: "Usage" })).toHaveCount(0);
  await page.goto("/admin/usage");
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await shot(page, "admin-usage-refused");
});

test("a changed password signs in; the old one no longer does", async ({ page }) => {
  const email = "password@example.com";
  const fresh = "a new and longer passphrase 2026";
  await signIn(page, email);
  await page.getByRole("link", { name: email }).click();
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password", { exact: true }).fill(fresh);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert")).toHaveText("The current password is not right");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();
  await shot(page, "account-password");

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Incorrect email or password");
  await signIn(page, email, fresh);
});

test("signing out everywhere ends another browser's session too", async ({ page, browser, baseURL }) => {
  const email = "everywhere@example.com";
  const other = await newPage(browser, baseURL);
  await signIn(other, email);
  await signIn(page, email);
  await page.getByRole("link", { name: email }).click();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");

  expect((await other.request.get("/api/auth/me")).status()).toBe(401);
  await other.reload();
  await expect(other.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await other.context().close();
});

test("an API key is shown once, works, and stops working when revoked", async ({ page, playwright, baseURL }) => {
  const email = "keys@example.com";
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, email);
  await page.getByRole("link", { name: email }).click();
  await expect(page.getByText("No API keys yet.")).toBeVisible();
  await page.getByRole("textbox", { name: "Name" }).fill("nightly report");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByRole("status", { name: /Your new key “nightly report”/ });
  const key = (await shown.locator("code").textContent()) ?? "";
  expect(key).toMatch(/^pck_/);
  await shown.getByRole("button", { name: "Copy key" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await shot(page, "account-api-key");

  const program = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${key}` } });
  const me = await program.get("/api/auth/me");
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { email: string }).email).toBe(email);

  await shown.getByRole("button", { name: "Done" }).click();
  await page.reload();
  const list = page.getByRole("list", { name: "Your API keys" });
  await expect(list.getByText("nightly report")).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);

  await list.getByRole("button", { name: "Revoke nightly report" }).click();
  await list.getByRole("button", { name: "Revoke “nightly report”" }).click();
  await expect(page.getByText("No API keys yet.")).toBeVisible();
  expect((await program.get("/api/auth/me")).status()).toBe(401);
  await program.dispose();
});

test("the account and usage pages pass axe in light and dark, and fit a 360 px window", async ({ browser, baseURL }) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ baseURL, colorScheme, viewport: { width: 360, height: 800 } });
    const page = await context.newPage();
    await signIn(page, "admin@example.com");
    for (const [path, heading] of [
      ["/account", "Account"],
      ["/admin/usage", "Usage"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
      await expect(page.getByText("Loading…")).toHaveCount(0);
      // Every serious or critical axe finding, colour contrast included.
      const found = await new AxeBuilder({ page }).include("main").include("header").analyze();
      const serious = found.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`))).toEqual([]);
      // Nothing wider than the window: the usage table scrolls inside its own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await shot(page, `${path.slice(1).replace("/", "-")}-360-${colorScheme}`);
    }
    await context.close();
  }
});
