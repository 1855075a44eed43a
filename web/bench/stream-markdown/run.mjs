#!/usr/bin/env node
// Streams a long markdown answer through the real chat UI and through a naive component
// that re-renders the whole markdown on every update, in Debian's Chromium, and prints one
// JSON line: main-thread scripting time of each, the longest task and frame, and how our
// cost grows from 2,000 to 20,000 tokens.
//
//   node bench/stream-markdown/run.mjs [--tokens 2000,20000] [--repeat 3] [--modes ours,naive] [--skip-build]
//
// Targets: at 20k tokens ≥10× less scripting than naive; 20k costs ≤12× what 2k costs.

import { createReadStream, existsSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, "dist");

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}
const tokenCounts = option("tokens", "2000,20000").split(",").map(Number);
const repeat = Number(option("repeat", "3"));
const modes = option("modes", "ours,naive").split(",");

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".map": "application/json" };

function serve(root) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(root, path === "/" ? "index.html" : path);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolveServer) => {
    server.listen(0, "127.0.0.1", () => resolveServer(server));
  });
}

const metric = (metrics, name) => metrics.find((m) => m.name === name)?.value ?? 0;

async function runOnce(browser, url, mode, tokens) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
    window.__frames = { last: 0, longest: 0, count: 0, on: false };
    const tick = (t) => {
      const f = window.__frames;
      if (f.on) {
        if (f.last) f.longest = Math.max(f.longest, t - f.last);
        f.count += 1;
      }
      f.last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.goto(url);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  await page.evaluate(() => {
    window.__frames.on = true;
  });
  const before = (await cdp.send("Performance.getMetrics")).metrics;
  const result = await page.evaluate(([m, t]) => window.runBench(m, t), [mode, tokens]);
  const after = (await cdp.send("Performance.getMetrics")).metrics;
  const page_ = await page.evaluate(() => ({ longTasks: window.__longTasks, frames: window.__frames }));
  await context.close();
  if (result.rendered < result.chars * 0.5) throw new Error(`${mode} ${tokens}: the answer was not rendered`);
  const ms = (name) => Math.round((metric(after, name) - metric(before, name)) * 1000 * 10) / 10;
  return {
    scriptMs: ms("ScriptDuration"),
    taskMs: ms("TaskDuration"),
    layoutMs: Math.round((ms("LayoutDuration") + ms("RecalcStyleDuration")) * 10) / 10,
    wallMs: Math.round(result.wallMs),
    longestTaskMs: Math.round(Math.max(0, ...page_.longTasks)),
    longTasks: page_.longTasks.length,
    longestFrameMs: Math.round(page_.frames.longest),
    frames: page_.frames.count,
    chars: result.chars,
  };
}

/** The run with the median scripting time. */
function median(runs) {
  const sorted = [...runs].sort((a, b) => a.scriptMs - b.scriptMs);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  if (!process.argv.includes("--skip-build") || !existsSync(join(dist, "index.html"))) {
    await build({ configFile: resolve(here, "vite.config.ts") });
  }
  const server = await serve(dist);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const results = { ours: {}, naive: {} };
  try {
    for (const mode of modes) {
      for (const tokens of tokenCounts) {
        // The naive run at the largest size takes long and varies little: once is enough.
        const times = mode === "naive" && tokens === Math.max(...tokenCounts) ? 1 : repeat;
        const runs = [];
        for (let i = 0; i < times; i++) runs.push(await runOnce(browser, url, mode, tokens));
        results[mode][tokens] = median(runs);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  const small = Math.min(...tokenCounts);
  const large = Math.max(...tokenCounts);
  if (!modes.includes("naive") || !modes.includes("ours")) {
    console.log(JSON.stringify({ bench: "stream-markdown", tokens: tokenCounts, ...results }));
    return;
  }
  const speedup = results.naive[large].scriptMs / Math.max(1, results.ours[large].scriptMs);
  const growth = results.ours[large].scriptMs / Math.max(1, results.ours[small].scriptMs);
  const out = {
    bench: "stream-markdown",
    tokens: tokenCounts,
    ours: results.ours,
    naive: results.naive,
    speedup_vs_naive: Math.round(speedup * 10) / 10,
    ours_growth: Math.round(growth * 10) / 10,
    targets: { speedup_vs_naive: ">= 10", ours_growth: `<= ${String((large / small) * 1.2)}` },
    pass: speedup >= 10 && growth <= (large / small) * 1.2,
  };
  console.log(JSON.stringify(out));
}

await main();
