// The tray as people who use a keyboard or a screen reader meet it, against the scripted
// server: axe-core finds no serious or critical violation in any of its states, and a whole
// conversation works from the keyboard alone. Screenshots: test-results/screenshots/a11y-*.png.
import { seriousViolations } from "./axe";
import { expect, shot, test } from "./fixtures";

test("axe finds no serious or critical violation in the tray: empty, streaming, tool progress, proposal, error", async ({ chat, page }) => {
  test.setTimeout(90_000);
  await test.step("empty", async () => {
    await expect(chat.log).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
  await test.step("streaming", async () => {
    await chat.send("long scroll");
    await expect(chat.streaming).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "a11y-streaming");
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  });
  await test.step("tool progress", async () => {
    await chat.send("use the tool");
    await expect(page.getByRole("status", { name: "Running slow_search" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "a11y-tool-progress");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  });
  await test.step("proposal", async () => {
    await chat.ask("make a payload");
    await expect(page.getByRole("complementary", { name: "Project proposal" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "a11y-proposal");
    await page.getByRole("complementary", { name: "Project proposal" }).getByRole("button", { name: "Close panel" }).click();
  });
  await test.step("error", async () => {
    await chat.send("error please");
    await expect(chat.log.getByRole("button", { name: "Retry" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "a11y-error");
  });
});

test("a whole conversation from the keyboard alone: open with Ctrl+/, ask, accept the proposal, Esc closes", async ({ chat, page }) => {
  // Start closed, with the focus on the page.
  await page.keyboard.press("Escape");
  await expect(chat.tray).toHaveCount(0);
  const launcher = page.getByRole("button", { name: "Assistant" });
  await expect(launcher).toBeFocused();
  await expect(launcher).toHaveAttribute("aria-keyshortcuts", /Control\+\//);
  await page.locator("body").focus();

  await page.keyboard.press("Control+/");
  await expect(chat.input).toBeFocused();
  await page.keyboard.type("make a payload");
  await page.keyboard.press("Enter");
  const panel = page.getByRole("complementary", { name: "Project proposal" });
  await expect(panel).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // Tab from the message box to the proposal's Accept, then press it.
  const accept = panel.getByRole("button", { name: "Accept" });
  for (let i = 0; i < 30 && !(await accept.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(accept).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(panel).toHaveCount(0);
  await expect(page.getByLabel("Name")).toHaveValue("Renamed by the assistant");

  // Back to the message box by the shortcut; a follow-up; then Esc closes the tray from there.
  await page.keyboard.press("Control+/");
  await expect(chat.input).toBeFocused();
  await page.keyboard.type("say hello");
  await page.keyboard.press("Enter");
  await expect(chat.answers.last()).toContainText("You said: say hello");
  await expect(chat.input).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(chat.tray).toHaveCount(0);
  await expect(launcher).toBeFocused();

  // Enter on the launcher reopens the same conversation.
  await page.keyboard.press("Enter");
  await expect(chat.input).toBeFocused();
  await expect(chat.answers.last()).toContainText("You said: say hello");
  await shot(page, "a11y-keyboard-walk");
});
