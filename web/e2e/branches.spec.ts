// Conversation control in Chromium: regenerate, edit and resend, versions, Continue after
// Stop, feedback and copy, each surviving a reload exactly as it was shown.
import { expect, shot, test, type Chat } from "./fixtures";
import type { Locator } from "@playwright/test";

/** The message's row: the message and its action bar. */
function row(message: Locator): Locator {
  return message.locator("xpath=..");
}

function bar(message: Locator): Locator {
  return row(message).getByRole("toolbar");
}

function userMessages(chat: Chat): Locator {
  return chat.log.locator('[data-role="user"]');
}

test.describe("conversation control", () => {
  test("regenerate, switch versions, and a reload shows the version chosen", async ({ chat, page }) => {
    const first = await chat.ask("regen please");
    await expect(first).toContainText(/Version \d+ of the answer\./);
    const original = (await first.locator(".pc-bubble").textContent()) ?? "";

    await bar(first).getByRole("button", { name: "Regenerate answer" }).click();
    await expect(chat.answers).toHaveCount(1);
    const answer = chat.answers.first();
    await expect(answer.locator(".pc-bubble")).not.toHaveText(original);
    await expect(bar(answer).locator("[data-branch-position]")).toHaveText("2 / 2");
    const regenerated = (await answer.locator(".pc-bubble").textContent()) ?? "";
    await shot(page, "branches-01-regenerated");

    await bar(answer).getByRole("button", { name: "Previous version" }).click();
    await expect(bar(answer).locator("[data-branch-position]")).toHaveText("1 / 2");
    await expect(answer.locator(".pc-bubble")).toHaveText(original);

    await page.reload();
    await expect(chat.answers.first().locator(".pc-bubble")).toHaveText(original);
    await expect(bar(chat.answers.first()).locator("[data-branch-position]")).toHaveText("1 / 2");
    await bar(chat.answers.first()).getByRole("button", { name: "Next version" }).click();
    await expect(chat.answers.first().locator(".pc-bubble")).toHaveText(regenerated);
    await page.reload();
    await expect(chat.answers.first().locator(".pc-bubble")).toHaveText(regenerated);
  });

  test("edit and resend an earlier question: a new version with its own answer", async ({ chat, page }) => {
    await chat.ask("first question");
    await chat.ask("second question");
    const question = userMessages(chat).first();

    await bar(question).getByRole("button", { name: "Edit message" }).click();
    const editor = chat.log.getByRole("textbox", { name: "Edited message" });
    await editor.fill("first question, edited");
    await chat.log.getByRole("button", { name: "Submit edit" }).click();

    await expect(chat.answers.first()).toContainText("You said: first question, edited");
    await expect(userMessages(chat)).toHaveCount(1);
    await expect(bar(userMessages(chat).first()).locator("[data-branch-position]")).toHaveText("2 / 2");
    await expect(chat.log).not.toContainText("second question");
    await shot(page, "branches-02-edited");

    await page.reload();
    await expect(userMessages(chat)).toHaveCount(1);
    await expect(userMessages(chat).first()).toContainText("first question, edited");
    await bar(userMessages(chat).first()).getByRole("button", { name: "Previous version" }).click();
    await expect(chat.log).toContainText("second question");
    await expect(userMessages(chat)).toHaveCount(2);
  });

  test("Stop, then Continue goes on with the same answer", async ({ chat, page }) => {
    await chat.send("a long answer please");
    await expect(chat.streaming).toContainText("Sentence number 2 ");
    await page.getByRole("button", { name: "Stop" }).click();
    const stopped = chat.log.locator('[data-role="assistant"][data-status="cancelled"]');
    await expect(stopped).toContainText("Stopped");

    await bar(stopped).getByRole("button", { name: "Continue answer" }).click();

    await expect(chat.answers).toHaveCount(1);
    const answer = chat.answers.first();
    await expect(answer).toHaveAttribute("data-status", "complete");
    await expect(answer).toContainText("Sentence number 1 of a long answer.");
    await expect(answer).toContainText("And that is the rest of the answer.");
    const shown = await answer.locator(".pc-bubble").textContent();
    await page.reload();
    await expect(chat.answers).toHaveCount(1);
    await expect(chat.answers.first().locator(".pc-bubble")).toHaveText(shown ?? "");
  });

  /** The one answer's text, its one counted_lookup card and that card's output, expanded
   * (streaming or not). */
  async function lookupAnswer(chat: Chat): Promise<{ text: string; output: string }> {
    const answers = chat.log.locator('[data-role="assistant"]');
    await expect(answers).toHaveCount(1);
    const answer = answers.first();
    const card = answer.getByRole("button", { name: /counted_lookup/ });
    await expect(card).toHaveCount(1);
    if ((await card.getAttribute("aria-expanded")) === "false") await card.click();
    const output = (await answer.getByText(/lookup \d+ done/).textContent()) ?? "";
    return { text: (await answer.locator(".pc-bubble").textContent()) ?? "", output };
  }

  function times(text: string, part: string): number {
    return text.split(part).length - 1;
  }

  test("Stop after a tool, then Continue: the tool is not run again and no text comes twice", async ({ chat, page }) => {
    await chat.send("lookup then a long answer");
    await expect(chat.streaming).toContainText("Finding number 2 ");
    const before = await lookupAnswer(chat);
    await page.getByRole("button", { name: "Stop" }).click();
    const stopped = chat.log.locator('[data-role="assistant"][data-status="cancelled"]');
    await expect(stopped).toContainText("Stopped");

    await bar(stopped).getByRole("button", { name: "Continue answer" }).click();
    await expect(chat.answers.first()).toHaveAttribute("data-status", "complete");
    await expect(chat.answers.first()).toContainText("And that is the rest of the answer.");
    const after = await lookupAnswer(chat);
    expect(after.output).toBe(before.output);
    expect(times(after.text, "Looking it up.")).toBe(1);
    expect(times(after.text, "Finding number 1 from the lookup.")).toBe(1);
    expect(times(after.text, "And that is the rest of the answer.")).toBe(1);

    await page.reload();
    expect(await lookupAnswer(chat)).toEqual(after);
  });

  test("Continue after the length limit, with a tool in the first part: one tool run, one copy of the text", async ({ chat, page }) => {
    const answer = await chat.ask("lookup then cut off");
    const note = answer.getByRole("note");
    await expect(note).toHaveText(/Cut off: the answer reached its length limit\./);
    const before = await lookupAnswer(chat);
    await note.getByRole("button", { name: "Continue" }).click();
    await expect(chat.answers.first()).toContainText(
      "this answer stops in the middle of a sent And that is the rest of the answer.",
    );
    await expect(chat.log.getByRole("note")).toHaveCount(0);
    const after = await lookupAnswer(chat);
    expect(after.output).toBe(before.output);
    expect(times(after.text, "Looking it up.")).toBe(1);
    expect(times(after.text, "stops in the middle")).toBe(1);

    await page.reload();
    expect(await lookupAnswer(chat)).toEqual(after);
  });

  test("thumbs down with a comment is kept, and can be changed", async ({ chat, page }) => {
    const answer = await chat.ask("rate this");
    await bar(answer).getByRole("button", { name: "Bad answer" }).click();
    await bar(answer).getByRole("textbox", { name: "Comment (optional)" }).fill("Wrong year.");
    // The thumb alone was saved at the click; wait for the save that carries the comment.
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith("/feedback") &&
        r.request().method() === "PUT" &&
        (r.request().postDataJSON() as { comment?: string | null }).comment === "Wrong year.",
    );
    await bar(answer).getByRole("button", { name: "Save feedback" }).click();
    const body = (await (await saved).json()) as { feedback: { rating: string; comment: string } };
    expect(body.feedback).toMatchObject({ rating: "down", comment: "Wrong year." });
    await expect(bar(answer).getByRole("button", { name: "Bad answer" })).toHaveAttribute("aria-pressed", "true");

    await page.reload();
    const reloaded = chat.answers.first();
    await expect(bar(reloaded).getByRole("button", { name: "Bad answer" })).toHaveAttribute("aria-pressed", "true");
    await bar(reloaded).getByRole("button", { name: "Good answer" }).click();
    await expect(bar(reloaded).getByRole("button", { name: "Good answer" })).toHaveAttribute("aria-pressed", "true");
    await expect(bar(reloaded).getByRole("button", { name: "Bad answer" })).toHaveAttribute("aria-pressed", "false");
  });

  test("copy an answer as markdown; the action bar works from the keyboard, with times", async ({ chat, page }) => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const answer = await chat.ask("copy **bold** text");
    await expect(answer.locator("strong")).toHaveText("bold");
    const time = bar(answer).locator("time");
    await expect(time).toHaveText("just now");
    await expect(time).toHaveAttribute("title", /\d/);

    const copy = bar(answer).getByRole("button", { name: "Copy answer" });
    await copy.focus();
    await page.keyboard.press("Enter");
    await expect(copy).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("You said: copy **bold** text");
    await page.keyboard.press("Tab");
    await expect(bar(answer).getByRole("button", { name: "Regenerate answer" })).toBeFocused();
    await expect(bar(answer).getByRole("button", { name: "Regenerate answer" })).toHaveAttribute(
      "title",
      "Regenerate answer",
    );
  });
});
