// A scaled-out deployment as its users meet it: two pagechat workers sharing Redis and
// one database, behind nginx balancing round robin (e2e/cluster_server.py). Whichever
// worker each request reaches, a reload mid-answer resumes it and Stop stops it; when
// the worker running an answer is killed, the other takes it over and the tray's answer
// finishes by itself (issue 32; docs/scaling.md).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test as base, expect } from "@playwright/test";
import { Chat, shot } from "./fixtures";
import { startPythonServer, webRoot } from "./servers";

interface Cluster {
  url: string;
  accessLog: string;
  workers: string[];
  /** Each worker's process id, in the order of `workers`. */
  pids: number[];
  stop: () => Promise<void>;
}

async function startCluster(): Promise<Cluster> {
  const server = await startPythonServer("cluster_server.py", ["--static", resolve(webRoot, "dist")], {
    name: "the cluster",
    timeoutMs: 60_000,
    graceMs: 20_000,
  });
  return {
    url: server.url,
    accessLog: /ACCESS_LOG (\S+)/.exec(server.out)?.[1] ?? "",
    workers: (/WORKERS (\d+) (\d+)/.exec(server.out) ?? []).slice(1).map((p) => `127.0.0.1:${p}`),
    pids: (/PIDS (\d+) (\d+)/.exec(server.out) ?? []).slice(1).map(Number),
    stop: server.stop,
  };
}

const test = base.extend<{ chat: Chat }, { cluster: Cluster }>({
  cluster: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      const cluster = await startCluster();
      await provide(cluster);
      await cluster.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ cluster }, provide) => {
    await provide(cluster.url);
  },
  chat: async ({ page }, provide) => {
    await page.addInitScript(() => {
      if (localStorage.getItem("pagechat.open") === null) localStorage.setItem("pagechat.open", "true");
    });
    await page.goto("/");
    await page.getByLabel("Email").fill("e2e@example.com");
    await page.getByLabel("Password").fill("e2e-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const chat = new Chat(page);
    await expect(chat.input).toBeVisible();
    await provide(chat);
  },
});

test.describe.configure({ mode: "serial" });

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${String(i)}`).join(" ");

test("a reload mid-answer resumes it to the end, whichever worker answers", async ({ chat, page }) => {
  await chat.send("words 240 please");
  await expect(chat.streaming).toContainText("w20 ");
  await page.reload();
  const answer = chat.answers.last();
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 20_000 });
  await expect(answer).toHaveText(words(240));
  await shot(page, "cluster-01-resumed");
});

test("Stop stops the answer on the worker running it", async ({ chat, page }) => {
  await chat.send("words 2000 to stop");
  await expect(chat.streaming).toContainText("w20 ");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(chat.log.locator('[data-status="cancelled"]')).toHaveCount(1);
  const stopped = (await chat.log.locator('[data-status="cancelled"]').textContent()) ?? "";
  await page.reload();
  // Stored as stopped, with what was shown: the server ended it, not just the page.
  const stored = chat.log.locator('[data-status="cancelled"]');
  await expect(stored).toHaveCount(1);
  const words = (text: string) => text.split(/\s+/).filter((w) => /^w\d+$/.test(w));
  expect(words((await stored.textContent()) ?? "").length).toBeGreaterThanOrEqual(words(stopped).length);
  expect(words((await stored.textContent()) ?? "").length).toBeLessThan(2000);
});

test("requests were spread over both workers", ({ cluster }) => {
  const log = readFileSync(cluster.accessLog, "utf8");
  for (const worker of cluster.workers) expect(log).toContain(worker);
  // The chat requests themselves reached both, not just the static files.
  const chats = log.split("\n").filter((line) => line.includes("/api/chat/"));
  for (const worker of cluster.workers) expect(chats.some((line) => line.endsWith(worker))).toBe(true);
});

// Last: it leaves one worker of the cluster dead.
test("killing the worker that runs the answer: the tray's answer still finishes, every word once", async ({
  chat,
  page,
  cluster,
}) => {
  const started = page.waitForResponse((r) => r.url().endsWith("/api/chat/stream") && r.request().method() === "POST");
  await chat.send("words 200 while its worker dies");
  const owner = (await started).headers()["x-upstream"] ?? "";
  expect(cluster.workers).toContain(owner);
  await expect(chat.streaming).toContainText("w20 ");
  process.kill(cluster.pids[cluster.workers.indexOf(owner)] ?? 0, "SIGKILL");
  // No reload, no click: the tray reconnects and the surviving worker goes on.
  const answer = chat.answers.last();
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
  await expect(answer).toHaveText(words(200));
  await shot(page, "cluster-02-taken-over");
  await page.reload();
  await expect(chat.answers).toHaveCount(1);
  await expect(chat.answers.last()).toHaveAttribute("data-status", "complete");
  await expect(chat.answers.last()).toHaveText(words(200));
});
