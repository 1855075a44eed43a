import { defineConfig } from "@playwright/test";

// Browser tests against a real pagechat server (e2e/scripted_server.py, started by
// e2e/global-setup.ts) in Debian's Chromium: no browser is ever downloaded.
export default defineConfig({
  testDir: "e2e",
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  outputDir: "test-results/playwright",
  globalSetup: "./e2e/global-setup.ts",
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: {
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
    },
  },
});
