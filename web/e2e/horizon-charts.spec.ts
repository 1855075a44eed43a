// Charts in Horizon: the offline model charts a report through the real chart_report tool, and
// the tray draws it with vega-embed under the server's Content-Security-Policy (no 'unsafe-eval').
import type { Locator, Page } from "@playwright/test";
import { shot, type Chat } from "./fixtures";
import { expect, openTray, signIn, test } from "./horizonFixture";

/** Signed in, on stream 1's latest report, with the tray open. */
async function onAReport(page: Page): Promise<Chat> {
  await signIn(page);
  await page.goto("/streams/1/reports");
  await expect(page).toHaveURL(/\/reports\/\d+$/);
  return openTray(page);
}

test("asking for a report's chart draws its bars in the answer and the panel without CSP violations", async ({ page }) => {
  test.setTimeout(90_000);
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && message.text().includes("Content Security Policy")) blocked.push(message.text());
  });
  page.on("pageerror", (error) => blocked.push(error.message));
  const chat = await onAReport(page);
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
});

/** Where `inner` sticks out of `outer`, in pixels (0 when it fits). */
async function overflow(inner: Locator, outer: Locator): Promise<number> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  // While the chart is drawn again for a new width, its old svg is gone for a moment:
  // not fitting yet, so the poll asks again rather than failing.
  if (a === null || b === null) return Number.POSITIVE_INFINITY;
  return Math.max(0, b.x - a.x, a.x + a.width - (b.x + b.width));
}

test("a report's chart fits the tray and the side panel at 360 and 1280 px", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const chat = await onAReport(page);
  const answer = await chat.ask("How are these articles distributed?");
  await answer.getByRole("button", { name: "View Chart" }).click();
  const panel = page.getByRole("complementary", { name: "Chart" });

  for (const width of [1280, 360]) {
    await test.step(`${String(width)} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      for (const [figure, frame] of [
        [answer.locator("figure.pc-chart"), chat.log],
        [panel.locator("figure.pc-chart"), panel],
      ] as const) {
        await expect(figure).toHaveAttribute("data-status", "ready");
        const svg = figure.locator("svg").first();
        // Drawn again for the new width: the whole chart inside its frame and the window.
        await expect.poll(() => overflow(svg, frame)).toBe(0);
        await expect.poll(() => overflow(svg, page.locator("body"))).toBe(0);
        // Fitted, not shrunk: drawn at its own size, so its text keeps its size.
        await expect.poll(() => svg.evaluate((el) => el.getBoundingClientRect().width / Number(el.getAttribute("width")))).toBeCloseTo(1, 2);
        expect((await svg.boundingBox())?.width).toBeGreaterThan(200);
        expect(await figure.locator("svg .mark-rect path").count()).toBeGreaterThan(1);
      }
      await shot(page, `horizon-chart-${String(width)}`);
    });
  }

  await test.step("dark", async () => {
    // Drawn again in Vega's dark theme on the tray's own background: light labels, no white box.
    const label = panel.locator("svg .role-axis-label text").first();
    const lightness = () =>
      label.evaluate((el) => {
        const [r = 0, g = 0, b = 0] = (getComputedStyle(el).fill.match(/\d+/g) ?? []).map(Number);
        return (r + g + b) / (3 * 255);
      });
    expect(await lightness()).toBeLessThan(0.5);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(lightness).toBeGreaterThan(0.5);
    const background = await panel.locator("svg").first().evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe("rgb(255, 255, 255)");
    await shot(page, "horizon-chart-dark");
  });
});
