// Horizon's pages for everyone: axe-core finds no serious or critical violation on any page
// (tray open), and the empty tray's hints start a conversation when clicked.
import { seriousViolations } from "./axe";
import { shot } from "./fixtures";
import { expect, openTray, signIn, test } from "./horizonFixture";

test.describe.configure({ mode: "serial" });

test("axe finds no serious or critical violation on any Horizon page", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await openTray(page);
  const pages: [string, string][] = [["streams", "/"], ["new stream", "/streams/new"], ["edit stream", "/streams/1"]];
  for (const [name, path] of pages) {
    await test.step(name, async () => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
  await test.step("a stream's reports (its latest report) and an article", async () => {
    await page.goto("/streams/1/reports");
    await expect(page.getByRole("heading", { level: 1, name: /^Report of / })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    const article = page.locator('a[href^="/articles/"]').first();
    await page.goto((await article.getAttribute("href")) ?? "/");
    await expect(page.getByRole("heading", { name: "Abstract" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "a11y-horizon-article");
  });
});

test("the empty tray's hints are buttons that start a conversation", async ({ page }) => {
  await signIn(page);
  const chat = await openTray(page);
  const hints = chat.tray.getByRole("group", { name: "Try" });
  await hints.getByRole("button", { name: "Give me portfolio insights" }).click();
  await expect(chat.log.locator('[data-role="user"]')).toHaveText(["Give me portfolio insights"]);
  await expect(chat.answers.last()).toBeVisible();
  await expect(hints).toHaveCount(0);
});
