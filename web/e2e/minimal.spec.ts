// The minimal example (web/examples/minimal) as an app outside this repository has it:
// `npm run build:example` (scripts/pack-example.mjs) packs @pagechat/react, installs the
// tarball in a copy of the example in a temporary folder and builds it there; plain pagechat
// (e2e/minimal_server.py) serves that build.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { test as base, expect } from "@playwright/test";
import { Chat, shot } from "./fixtures";
import { startPythonServer, webRoot, type PythonServer } from "./servers";

const dist = resolve(webRoot, "examples/minimal/dist");

const test = base.extend<object, { minimal: PythonServer }>({
  minimal: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      // packed.json: the build is the packed package's, not a workspace build of the example.
      if (!existsSync(resolve(dist, "packed.json"))) throw new Error("the example is not built from the tarball: run `npm run build:example`");
      const server = await startPythonServer("minimal_server.py", ["--static", dist], {
        name: "the minimal example's server",
        timeoutMs: 60_000,
        graceMs: 10_000,
      });
      await provide(server);
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ minimal }, provide) => {
    await provide(minimal.url);
  },
});

test("the tray from the packed @pagechat/react streams an answer in a fresh app", async ({ page }) => {
  // The host app's sign-in: the server's session cookie, which the tray then uses.
  const login = await page.request.post("/api/auth/login", {
    data: { email: "minimal@example.com", password: "correct horse battery staple" },
  });
  expect(login.ok()).toBe(true);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "My app" })).toBeVisible();

  const chat = new Chat(page);
  await chat.send("hello");
  await expect(chat.streaming).toContainText("Hello from");
  await expect(chat.streaming).not.toContainText("the package.");
  await expect(chat.answers.last()).toHaveText(/Hello from the package\./);
  await shot(page, "minimal-01-answer");
});
