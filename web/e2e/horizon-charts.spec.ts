// Charts in Horizon: the offline model charts a report through the real chart_report tool, and
// the tray draws it with vega-embed under the server's Content-Security-Policy (no 'unsafe-eval').
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { Chat, shot } from "./fixtures";
import { startPythonServer, webRoot } from "./servers";

test("asking for a report's chart draws its bars in the answer and the panel without CSP violations", async ({ page }) => {
  test.setTimeout(120_000);
  const server = await startPythonServer("horizon_server.py", ["--static", resolve(webRoot, "dist")], {
    name: "the Horizon server",
    timeoutMs: 60_000,
    graceMs: 10_000,
  });
  try {
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && message.text().includes("Content Security Policy")) blocked.push(message.text());
    });
    page.on("pageerror", (error) => blocked.push(error.message));

    await page.goto(`${server.url}/`);
    await page.getByLabel("Email").fill("demo@example.com");
    await page.getByLabel("Password").fill("demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Research streams" })).toBeVisible();
    await page.goto(`${server.url}/streams/1/reports`);
    await expect(page).toHaveURL(/\/reports\/\d+$/);
    const chat = new Chat(page);
    if ((await chat.tray.count()) === 0) await page.getByRole("button", { name: /Assistant/ }).click();
    await expect(chat.input).toBeFocused();

    const answer = await chat.ask("How are these articles distributed?");

    await expect(answer).toContainText("per category and per publication year");
    // A chart waits for no decision: it stays in the answer, and View opens it in the panel.
    await answer.getByRole("button", { name: "View Chart" }).click();
    const panel = page.getByRole("complementary", { name: "Chart" });
    const figure = panel.locator("figure.pc-chart");
    await expect(figure).toHaveAttribute("data-status", "ready");
    // Two bar charts: categories and years, each with at least one bar.
    await expect(figure.locator("svg .mark-rect").first()).toBeVisible();
    expect(await figure.locator("svg .mark-rect path").count()).toBeGreaterThan(1);
    // The same chart stands in the answer, where its tool card is.
    const inline = answer.locator("figure.pc-chart");
    await expect(inline).toHaveAttribute("data-status", "ready");
    expect(await inline.locator("svg .mark-rect path").count()).toBeGreaterThan(1);
    await shot(page, "horizon-chart-report");
    expect(blocked).toEqual([]);
  } finally {
    await server.stop();
  }
});
