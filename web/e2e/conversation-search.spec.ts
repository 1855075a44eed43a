// Searching conversations from the tray's list: titles and message text, through the real
// server's full-text index (SQLite FTS5 here).
import { baseUrl, expect, shot, test, TOKEN } from "./fixtures";

test("the search box finds a conversation by a word of its messages and opens it", async ({ chat, page }) => {
  const headers = { Authorization: `Bearer ${TOKEN}` };
  const marker = `axolotl${String(Date.now())}`;
  for (const message of [`Notes on ${marker} regeneration`, "Something about tardigrades"]) {
    const response = await page.request.post(`${baseUrl()}/api/chat/stream`, { headers, data: { message } });
    expect(response.ok()).toBe(true);
  }
  await page.getByRole("button", { name: "Conversations" }).click();
  const nav = page.getByRole("navigation", { name: "Conversations" });
  const box = nav.getByRole("searchbox", { name: "Search conversations" });

  await box.fill(marker.slice(0, 12));

  const results = nav.getByRole("list", { name: "Search results" });
  await expect(results.getByRole("listitem")).toHaveCount(1);
  // The typed start of the word is what is marked.
  await expect(results.locator("mark").first()).toHaveText(marker.slice(0, 12));
  await shot(page, "19-conversation-search");

  await box.fill('"tardigrades" OR *');
  await expect(nav.getByText(/No conversation matches/)).toBeVisible();

  await box.press("Escape");
  await expect(box).toHaveValue("");
  await expect(nav.getByText("Something about tardigrades")).toBeVisible();

  await box.fill(marker);
  await results.getByRole("button").first().click();
  await expect(chat.log.locator('[data-role="user"]')).toHaveText([`Notes on ${marker} regeneration`]);
});
