import { expect, shot, test } from "./fixtures";

test.describe("truthful payloads", () => {
  test("a proposal off its schema is a 'couldn't show' card, never raw JSON, live and after a reload", async ({ chat, page }) => {
    const answer = await chat.ask("a garbled proposal please");
    const card = answer.locator("[data-payload-error]");
    await expect(card).toContainText("Couldn't show this proposal");
    await expect(card).toContainText("project proposal");
    await expect(answer.locator(".pc-message-content")).toHaveText(/Here is my proposal\.\s*Thoughts\?/);
    await expect(answer).not.toContainText("PROJECT_PROPOSAL");
    await expect(answer.locator(".pc-message-content")).not.toContainText('"object"');
    // The details (with the data as written) are folded away until asked for.
    await expect(card.locator("pre")).toBeHidden();
    await shot(page, "40-payload-error");
    await card.getByText("Details").click();
    await expect(card.locator("pre")).toContainText('["not", "an", "object"]');
    await page.reload();
    const stored = chat.answers.last();
    await expect(stored.locator("[data-payload-error]")).toContainText("Couldn't show this proposal");
    await expect(stored).not.toContainText("PROJECT_PROPOSAL");
  });

  test("present_choices shows the buttons in the answer with no tool card", async ({ chat, page }) => {
    const answer = await chat.ask("pick a colour for me");
    const group = answer.getByRole("group", { name: "Which colour?" });
    await expect(group.getByRole("button")).toHaveCount(2);
    await expect(answer.locator(".pc-tool-card")).toHaveCount(0);
    await expect(answer).not.toContainText("second call");
    await shot(page, "41-present-choices");
    await page.reload();
    const stored = chat.answers.last();
    await expect(stored.getByRole("group", { name: "Which colour?" }).getByRole("button")).toHaveCount(2);
    await expect(stored.locator(".pc-tool-card")).toHaveCount(0);
  });
});
