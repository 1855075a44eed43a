// The tray and Horizon at every width: docked beside the page from 1024 px (the page
// reflows as the tray is resized, the width is remembered), an overlay sheet below; the
// proposal panel and every button inside the window from 360 px up. Screenshots:
// test-results/screenshots/layout-<width>.png.
import type { Page } from "@playwright/test";
import { shot } from "./fixtures";
import { expect, openTray, signIn, test } from "./horizonFixture";

const WIDTHS = [360, 800, 1280, 1920];
const HEIGHT = 800;

interface Box {
  what: string;
  left: number;
  right: number;
}

/** Every visible button, link and separator that sticks out of the window, by name. */
async function outside(page: Page): Promise<Box[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: { what: string; left: number; right: number }[] = [];
    for (const el of Array.from(document.querySelectorAll("button, a[href], [role='separator'], .pc-panel, .pc-tray"))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        const name = el.getAttribute("aria-label") ?? (el.textContent || el.tagName).trim().slice(0, 40);
        found.push({ what: `${el.tagName.toLowerCase()} ${name}`, left: box.left, right: box.right });
      }
    }
    return found;
  });
}

test.describe.configure({ mode: "serial" });

test("the proposal panel, the tray and every button stay inside the window at 360, 800, 1280 and 1920 px", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: HEIGHT });
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New stream" }).click();
  const chat = await openTray(page);
  await chat.ask("Suggest a template for CRISPR base editing");
  const panel = page.getByRole("complementary", { name: "Stream template" });
  await expect(panel.getByRole("button", { name: "Fill the form" })).toBeVisible();

  for (const width of WIDTHS) {
    await test.step(`${String(width)} px`, async () => {
      await page.setViewportSize({ width, height: HEIGHT });
      await expect(chat.tray).toHaveAttribute("data-layout", width >= 1024 ? "docked" : "sheet");
      // A long proposal scrolls inside the panel: its button is reached by scrolling, never cut off.
      const fill = panel.getByRole("button", { name: "Fill the form" });
      await fill.scrollIntoViewIfNeeded();
      await expect(fill).toBeInViewport();
      await expect(panel.getByRole("button", { name: "Close panel" })).toBeInViewport();
      // The buttons are stuck to the panel's bottom edge: no line of the card shows below them.
      const below = await panel.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return document.elementFromPoint(box.left + box.width / 2, box.bottom - 2)?.closest(".hz-card-actions") !== null;
      });
      expect(below).toBe(true);
      if (width >= 800) {
        // The menu's links on one row, not stacked.
        const nav = page.getByRole("navigation", { name: "Main" });
        const tops = await nav.getByRole("link").evaluateAll((links) => links.map((a) => Math.round(a.getBoundingClientRect().top)));
        expect(new Set(tops).size).toBe(1);
      }
      await expect(page.getByRole("button", { name: "Sign out" })).toBeInViewport();
      expect(await outside(page)).toEqual([]);
      const trayBox = await chat.tray.boundingBox();
      const panelBox = await panel.boundingBox();
      expect(trayBox).not.toBeNull();
      expect(panelBox).not.toBeNull();
      if (trayBox === null || panelBox === null) return;
      expect(trayBox.x + trayBox.width).toBeCloseTo(width, 0);
      if (width >= 1024) {
        // Docked: the panel beside the tray, the page in the room left of it.
        expect(panelBox.x + panelBox.width).toBeCloseTo(trayBox.x, 0);
        const main = await page.locator(".app-shell").boundingBox();
        expect(main?.width).toBeCloseTo(trayBox.x, 0);
      }
      await shot(page, `layout-${String(width)}`);
    });
  }

  await test.step("the sheet's scrim closes it on a narrow window", async () => {
    await page.setViewportSize({ width: 800, height: HEIGHT });
    await panel.getByRole("button", { name: "Close panel" }).click();
    await page.mouse.click(20, 400);
    await expect(chat.tray).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Assistant/ })).toBeInViewport();
  });
});

test("a docked tray is resized with its visible handle, the page reflows, and the width is remembered", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: HEIGHT });
  await signIn(page);
  const chat = await openTray(page);
  const handle = page.getByRole("separator", { name: "Resize chat" });
  const grip = handle.locator(".pc-resize-grip");
  await expect(grip).toBeVisible();
  const gripBox = await grip.boundingBox();
  expect(gripBox?.width).toBeGreaterThanOrEqual(4);

  const shell = page.locator(".app-shell");
  const before = (await chat.tray.boundingBox())?.width ?? 0;
  const box = await handle.boundingBox();
  if (box === null) throw new Error("no handle");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 200, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  // The tray's edge follows the pointer (which grabbed the handle a few pixels inside it).
  await expect.poll(async () => Math.abs(((await chat.tray.boundingBox())?.width ?? 0) - (before + 200))).toBeLessThan(10);
  const after = (await chat.tray.boundingBox())?.width ?? 0;
  expect((await shell.boundingBox())?.width).toBeCloseTo(1280 - after, 0);

  await handle.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await chat.tray.boundingBox())?.width).toBeCloseTo(after - 24, 0);
  const stored = await page.evaluate(() => localStorage.getItem("pagechat.width"));
  expect(Number(stored)).toBeCloseTo(after - 24, 0);

  await page.reload();
  await expect(chat.tray).toBeVisible();
  expect((await chat.tray.boundingBox())?.width).toBeCloseTo(after - 24, 0);
  expect((await shell.boundingBox())?.width).toBeCloseTo(1280 - (after - 24), 0);
  await shot(page, "layout-resized-1280");
});
