import { expect, shot, test } from "./fixtures";

test.describe("tool approval", () => {
  test("the answer waits with an approval card; Approve runs the tool and the answer goes on", async ({ chat, page }) => {
    const waiting = await chat.ask("approve: delete item 7");
    await expect(waiting).toHaveAttribute("data-status", "needs_approval");
    const card = waiting.getByRole("region", { name: "Approve delete_demo?" });
    await expect(card).toContainText("Delete a demo item.");
    await card.getByText("Arguments").click();
    await expect(card).toContainText('"id": 7');
    await shot(page, "20-approval-card");

    await card.getByRole("button", { name: "Approve" }).click();

    const done = chat.log.locator('[data-role="assistant"][data-status="complete"]').last();
    await expect(done).toContainText("Item 7 is deleted.");
    await expect(done).toContainText("I will delete item 7.");
    await expect(done.locator(".pc-tool-card-badge")).toHaveText("approved");
    await expect(chat.log.getByRole("region", { name: /Approve/ })).toHaveCount(0);
    await shot(page, "21-approved");
  });

  test("a reload while the answer waits shows the same card, and it still works", async ({ chat, page }) => {
    await chat.ask("approve: delete item 7");
    await expect(chat.log.getByRole("region", { name: "Approve delete_demo?" })).toBeVisible();

    await page.reload();

    const card = chat.log.getByRole("region", { name: "Approve delete_demo?" });
    await expect(card).toBeVisible();
    await card.getByRole("button", { name: "Approve" }).click();
    await expect(chat.log.locator('[data-role="assistant"]').last()).toContainText("Item 7 is deleted.");
  });

  test("Deny with a reason: the tool does not run and the model answers with the reason", async ({ chat, page }) => {
    await chat.ask("approve: delete item 7");
    const card = chat.log.getByRole("region", { name: "Approve delete_demo?" });

    await card.getByRole("button", { name: "Deny…" }).click();
    await card.getByRole("textbox", { name: "Reason (optional)" }).fill("I still need it");
    await shot(page, "22-deny-reason");
    await card.getByRole("button", { name: "Deny", exact: true }).click();

    const done = chat.log.locator('[data-role="assistant"]').last();
    await expect(done).toContainText("I kept item 7.");
    await expect(done).toContainText("I still need it");
    await expect(done.locator(".pc-tool-card-badge")).toHaveText("denied");
    // Stored: a reload shows the denied call, and no card.
    await page.reload();
    await expect(chat.log.locator('[data-role="assistant"]').last()).toContainText("I kept item 7.");
    await expect(chat.log.getByRole("region", { name: /Approve/ })).toHaveCount(0);
  });
});
