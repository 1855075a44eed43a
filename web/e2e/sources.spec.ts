// Sources (issue 37): Horizon's offline model searches PubMed with the real search_pubmed
// tool, which returns its articles as sources; the answer cites them as [n], linked to a
// Sources list under it, and a reload shows the same citations and list.
import type { Page } from "@playwright/test";
import { shot, type Chat } from "./fixtures";
import { expect, openTray, signIn, test } from "./horizonFixture";

/** Asks for a PubMed search and waits for its answer (approving the search when it leaves for PubMed). */
async function search(page: Page, chat: Chat, text: string) {
  await chat.send(text);
  const approval = page.getByRole("region", { name: "Approve search_pubmed?" });
  const listed = chat.log.getByRole("region", { name: "Sources" });
  await expect(approval.or(listed).first()).toBeVisible({ timeout: 30_000 });
  if (await approval.isVisible()) await approval.getByRole("button", { name: "Approve" }).click();
  const answer = chat.log.locator('[data-role="assistant"][data-status="complete"]').last();
  await expect(answer.getByRole("region", { name: "Sources" })).toBeVisible({ timeout: 30_000 });
  return answer;
}

test("a PubMed search's articles are cited as [n], listed as Sources under the answer, and the same after a reload", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const chat = await openTray(page);
  const answer = await search(page, chat, "Find articles on cancer patients");

  const sources = answer.getByRole("region", { name: "Sources" });
  await expect(sources).toBeVisible();
  const entries = sources.getByRole("listitem");
  expect(await entries.count()).toBeGreaterThan(1);
  // The answer cites its first articles, each linked to its entry in the list.
  const first = answer.locator("a.pc-cite").first();
  await expect(first).toHaveText("[1]");
  const firstEntry = entries.first();
  const title = (await firstEntry.locator(".pc-source-body > :first-child").textContent()) ?? "";
  expect(title).not.toBe("");
  await expect(first).toHaveAccessibleName(`Source 1: ${title}`);
  await expect(firstEntry).toContainText(/PMID \w+/);
  const links = sources.getByRole("link");
  for (const link of await links.all()) {
    await expect(link).toHaveAttribute("href", /^https:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/\d+\/$/);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  }
  // A citation goes to its source in the list, not away from the page.
  const url = page.url();
  await first.click();
  await expect(firstEntry).toBeFocused();
  expect(page.url()).toBe(url);
  // The tool's own data, numbered lines and all, links nothing.
  await answer.getByRole("button", { name: /search_pubmed/ }).click();
  await expect(answer.locator(".pc-tool-card a, pre a")).toHaveCount(0);
  await shot(page, "sources-answer");

  const cited = await answer.locator("a.pc-cite").allTextContents();
  const listed = await entries.allTextContents();
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  await page.reload();
  const again = chat.answers.last();
  const reloaded = again.getByRole("region", { name: "Sources" });
  await expect(reloaded).toBeVisible({ timeout: 20_000 });
  expect(await again.locator("a.pc-cite").allTextContents()).toEqual(cited);
  expect(await reloaded.getByRole("listitem").allTextContents()).toEqual(listed);
  expect(await reloaded.getByRole("link").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(hrefs);
  await expect(again.locator("a.pc-cite").first()).toHaveAccessibleName(`Source 1: ${title}`);
  await shot(page, "sources-after-reload");
});
