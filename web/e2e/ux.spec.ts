// The tray and Horizon as people use them (issue 35), on one Horizon server: every tray state
// readable in light and dark (axe colour contrast) at 360, 800 and 1280 px, every visible
// control at least 24×24 px (44×44 on a touch screen) with nothing over its centre, copy and
// search holding plain text, and the report page after an approved deletion, here and in
// another tab.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Locator, Page } from "@playwright/test";
import { shot } from "./fixtures";
import { DEMO, expect, openTray, test } from "./horizonFixture";

test.describe.configure({ mode: "serial" });

const WIDTHS = [360, 800, 1280] as const;
const SCHEMES = ["light", "dark"] as const;
type Scheme = (typeof SCHEMES)[number];

/** The row of a message: the message and its action bar. */
function row(message: Locator): Locator {
  return message.locator("xpath=ancestor::*[contains(@class, 'pc-message-row')][1]");
}

async function contrastProblems(page: Page, scope: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(scope).withRules(["color-contrast"]).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`));
}

/** Visible controls in `scope` smaller than `min`, past the window's sides, or whose centre
 * another element covers. Links inside running text are exempt (WCAG 2.5.8's inline case). */
async function targetProblems(page: Page, scope: string, min: number): Promise<string[]> {
  return page.evaluate(
    ({ scope, min }) => {
      const problems: string[] = [];
      const name = (el: Element) => {
        const cls = typeof el.className === "string" && el.className !== "" ? `.${el.className.split(" ")[0] ?? ""}` : "";
        return `${el.tagName.toLowerCase()}${cls} "${(el.getAttribute("aria-label") ?? el.textContent).trim().slice(0, 30)}"`;
      };
      for (const root of Array.from(document.querySelectorAll(scope))) {
        const controls = Array.from(root.querySelectorAll<HTMLElement>('button, a[href], input[type="checkbox"], select, summary'));
        for (const el of controls) {
          const rect = el.getBoundingClientRect();
          if (rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
          if (el.closest("[inert], [aria-hidden='true']")) continue;
          const inline = el.tagName === "A" && (el.parentElement?.textContent ?? "").trim() !== el.textContent.trim();
          if (inline) continue;
          const cx = rect.left + rect.width / 2;
          const cy = rect.top + rect.height / 2;
          // Scrolled out of its list or the window: looked at when scrolled to, not now.
          if (cy < 0 || cy > window.innerHeight) continue;
          if (rect.left < -1 || rect.right > window.innerWidth + 1) problems.push(`${name(el)} is past the window's side`);
          if (rect.width < min - 0.5 || rect.height < min - 0.5)
            problems.push(`${name(el)} is ${rect.width.toFixed(0)}×${rect.height.toFixed(0)}`);
          const top = document.elementFromPoint(Math.min(Math.max(cx, 0), window.innerWidth - 1), cy);
          const label = el.tagName === "INPUT" ? el.closest("label") : null;
          const covers = (over: Element | null) => over !== null && !el.contains(over) && !over.contains(el) && !(label?.contains(over) ?? false);
          if (covers(top)) {
            // Under something fixed (the launcher) or sticky (a form's footer) here: hidden
            // only if it stays so once scrolled to the middle of the window, where a user
            // would bring it.
            const y = window.scrollY;
            el.scrollIntoView({ block: "center" });
            const moved = el.getBoundingClientRect();
            const again = document.elementFromPoint(moved.left + moved.width / 2, moved.top + moved.height / 2);
            window.scrollTo(0, y);
            if (covers(again)) problems.push(`${name(el)} is under ${name(top as Element)}`);
          }
        }
      }
      return problems;
    },
    { scope, min },
  );
}

/** Controls the launcher stands over on a form page, or at the end of any page: none, but
 * those a form's sticky footer covers there too (scrolling frees them), and none of the
 * footer's own. Mid-list, a list's row may pass under it: scrolling frees it (`targetProblems`). */
async function underTheLauncher(page: Page, atTheEnd: boolean): Promise<string[]> {
  return page.evaluate((atTheEnd) => {
    const launcher = document.querySelector(".pc-launcher")?.getBoundingClientRect();
    const footer = document.querySelector(".hz-form-footer");
    if (launcher === undefined || (footer === null && !atTheEnd)) return [];
    const band = footer?.getBoundingClientRect();
    const under: string[] = [];
    for (const el of Array.from(document.querySelectorAll("button, a[href], input, select, textarea, summary"))) {
      if (el.closest(".pc-launcher, .pc-tray")) continue;
      const r = el.getBoundingClientRect();
      const top = Math.max(r.top, launcher.top);
      const bottom = Math.min(r.bottom, launcher.bottom);
      if (r.width === 0 || bottom <= top || r.right <= launcher.left || r.left >= launcher.right) continue;
      const behindFooter = band !== undefined && !(footer?.contains(el) ?? false) && band.top <= top && band.bottom >= bottom;
      if (!behindFooter) under.push(`${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent).trim().slice(0, 30)}"`);
    }
    return under;
  }, atTheEnd);
}

/** A new signed-in page in `scheme`, at `width`. */
async function signedIn(browser: Browser, baseURL: string, scheme: Scheme, width: number, hasTouch = false): Promise<Page> {
  const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width, height: 800 }, hasTouch, isMobile: hasTouch });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  await page.goto("/");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Research streams" })).toBeVisible();
  return page;
}

/** The tray and its side panel, checked at every width: contrast, target sizes, cover. */
async function checkTray(page: Page, state: string, scheme: Scheme): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.locator(".pc-tray")).toBeVisible();
    const scope = (await page.locator(".pc-panel").count()) > 0 ? ".pc-panel" : ".pc-tray";
    expect(await contrastProblems(page, scope), `${state}, ${scheme}, ${String(width)} px`).toEqual([]);
    expect(await targetProblems(page, scope, 24), `${state}, ${scheme}, ${String(width)} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

for (const scheme of SCHEMES) {
  test(`every tray state is readable in ${scheme} at 360, 800 and 1280 px, its controls big enough and uncovered`, async ({
    browser,
    horizonUrl,
  }) => {
    test.setTimeout(240_000);
    const page = await signedIn(browser, horizonUrl, scheme, 1280);
    await page.goto("/streams/1/reports");
    await expect(page.getByRole("heading", { level: 1, name: /^Report of / })).toBeVisible();
    const chat = await openTray(page);

    // Approval: a deletion asks first, Approve the main action and Deny a danger one.
    await chat.send("delete this report");
    const approval = page.getByRole("region", { name: "Approve delete_report?" });
    await expect(approval).toBeVisible();
    await expect(approval.getByRole("button", { name: "Approve" })).toHaveAttribute("data-variant", "primary");
    await checkTray(page, "approval", scheme);
    await shot(page, `ux-approval-${scheme}`);

    // Denial: the reason form, then the denied call's badge in the danger colour.
    await approval.getByRole("button", { name: "Deny…" }).click();
    await checkTray(page, "denial form", scheme);
    await approval.getByRole("button", { name: "Deny", exact: true }).click();
    const denied = chat.log.locator('.pc-tool-card-badge[data-approval="denied"]');
    await expect(denied).toHaveAttribute("data-tone", "danger");
    await expect(chat.answers.last()).toContainText("I did not delete report");
    await checkTray(page, "denied", scheme);

    // Feedback form.
    await row(chat.answers.last()).getByRole("button", { name: "Bad answer" }).click();
    await expect(page.getByRole("form", { name: "Feedback comment" })).toBeVisible();
    await checkTray(page, "feedback form", scheme);
    await page.getByRole("form", { name: "Feedback comment" }).getByRole("button", { name: "Close" }).click();

    // Edit form.
    await chat.log.getByRole("button", { name: "Edit message" }).first().click();
    await expect(page.getByRole("form", { name: "Edit message" })).toBeVisible();
    await checkTray(page, "edit form", scheme);
    await page.getByRole("form", { name: "Edit message" }).getByRole("button", { name: "Cancel" }).click();

    // Error: the chat route fails once.
    await page.route("**/api/chat/stream", (route) => route.fulfill({ status: 503, contentType: "application/json", body: '{"detail":"Try again later."}' }));
    await chat.send("summarise this report");
    await expect(chat.tray.getByRole("alert")).toBeVisible();
    await checkTray(page, "error", scheme);
    await page.unroute("**/api/chat/stream");

    // A proposal in the side panel (new stream page), accepted, then undone from the tray.
    await page.getByRole("button", { name: "New conversation" }).click();
    await page.goto("/streams/new");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The tray opens again by itself (it was open), or from the launcher.
    await expect(chat.input.or(page.getByRole("button", { name: /Assistant/ }))).toBeVisible();
    await openTray(page);
    await chat.send("Could you fill in a starting point for a stream on long COVID?");
    const panel = page.locator(".pc-panel");
    await expect(panel).toBeVisible();
    await expect(panel).toContainText("Long COVID");
    await checkTray(page, "proposal panel", scheme);
    await panel.getByRole("button", { name: "Fill the form" }).click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Long COVID");
    const trayNotice = chat.tray.locator(".pc-tray-notice");
    await expect(trayNotice).toContainText("Filled the form");
    await expect(chat.log.locator(".pc-payload-decision")).toHaveText("Accepted");
    await checkTray(page, "accepted, with its notice", scheme);
    await trayNotice.getByRole("button", { name: "Undo" }).click();
    await expect(trayNotice).toContainText("Undone");
    await expect(chat.log.locator(".pc-payload-decision")).toHaveText("Rejected");
    await page.context().close();
  });
}

test("every page's controls are 24×24 px (44×44 on touch) and uncovered, the launcher included", async ({ browser, horizonUrl }) => {
  test.setTimeout(180_000);
  for (const [scheme, touch] of [["light", false], ["dark", true]] as const) {
    const page = await signedIn(browser, horizonUrl, scheme, 1280, touch);
    const min = touch ? 44 : 24;
    if (touch) expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
    for (const path of ["/", "/streams/new", "/streams/1", "/streams/1/reports"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        // The launcher floats over the page: every scroll position, the end included.
        for (const at of ["top", "bottom"] as const) {
          await page.evaluate((end) => {
            window.scrollTo(0, end === "top" ? 0 : document.body.scrollHeight);
          }, at);
          expect(await targetProblems(page, "body", min), `${path}, ${scheme}, ${String(width)} px, ${at}`).toEqual([]);
          expect(await underTheLauncher(page, at === "bottom"), `${path}, ${scheme}, ${String(width)} px, ${at}`).toEqual([]);
        }
        expect(await contrastProblems(page, "body"), `${path}, ${scheme}, ${String(width)} px`).toEqual([]);
      }
    }
    await page.context().close();
  }
});

test("the theme switch overrides the system's scheme, in the page and the tray", async ({ browser, horizonUrl }) => {
  const page = await signedIn(browser, horizonUrl, "light", 1280);
  const background = (where: Locator) => where.evaluate((el) => getComputedStyle(el).backgroundColor);
  const light = await background(page.locator("body"));
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page.locator("body"))).not.toBe(light);
  const chat = await openTray(page);
  expect(await background(chat.tray)).toBe("rgb(21, 27, 35)");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.getByRole("button", { name: "System theme" }).click();
  expect(await background(page.locator("body"))).toBe(light);
  await page.context().close();
});

test("copy and search hold what the user read: choices as their question and options", async ({ browser, horizonUrl }) => {
  const page = await signedIn(browser, horizonUrl, "light", 1280);
  const chat = await openTray(page);
  const answer = await chat.ask("help");
  await expect(answer.getByRole("button", { name: "List my streams" })).toBeVisible();
  await row(answer).getByRole("button", { name: "Copy answer" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("What should I do?\n- List my streams\n");
  expect(copied).not.toMatch(/```|[{}"]/);

  await page.getByRole("button", { name: "Conversations" }).click();
  const nav = page.getByRole("navigation", { name: "Conversations" });
  await nav.getByRole("searchbox", { name: "Search conversations" }).fill("portfolio");
  const snippet = nav.getByRole("list", { name: "Search results" }).locator(".pc-search-snippet").first();
  await expect(snippet).toContainText("Portfolio insights");
  expect(await snippet.textContent()).not.toMatch(/[{}"]|value|label/);
  await page.context().close();
});

test("after an approved deletion the report's page moves on to the stream's reports, here and in another tab", async ({
  browser,
  horizonUrl,
}) => {
  const page = await signedIn(browser, horizonUrl, "light", 1280);
  await page.goto("/streams/1/reports");
  await expect(page.getByRole("heading", { level: 1, name: /^Report of / })).toBeVisible();
  const reportPath = new URL(page.url()).pathname;
  const reportId = reportPath.split("/").pop() ?? "";
  const other = await page.context().newPage();
  await other.goto(reportPath);
  await expect(other.getByRole("heading", { level: 1, name: /^Report of / })).toBeVisible();

  const chat = await openTray(page);
  await chat.send("delete this report");
  const approval = page.getByRole("region", { name: "Approve delete_report?" });
  await approval.getByRole("button", { name: "Approve" }).click();

  const notice = `Report ${reportId} was deleted.`;
  for (const tab of [page, other]) {
    await expect(tab.getByRole("status").filter({ hasText: notice })).toBeVisible();
    await expect(tab).not.toHaveURL(new RegExp(`/reports/${reportId}$`));
    await expect(tab.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await expect(chat.log.locator('.pc-tool-card-badge[data-approval="approved"]')).toHaveAttribute("data-tone", "success");
  await expect(chat.answers.last()).toContainText(`Deleted report ${reportId}`);
  await shot(page, "ux-after-deletion");
  // Its address opened later says it is gone and leads on, instead of a Retry that fails again.
  await page.goto(reportPath);
  const gone = page.getByRole("alert").filter({ hasText: "The report was not found" });
  await expect(gone).toContainText("it may have been deleted");
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await gone.getByRole("link", { name: "Go to your streams" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Research streams" })).toBeVisible();
  await page.context().close();
});
