// Hostile input through the real server and the real UI: every payload of xss_corpus.json
// reaches the tray as model text, tool progress/output/error, payload fields, choices,
// suggestion chips and action buttons (scripted_server.py's `xss` mode). Whatever it
// renders, and whatever the user clicks, no script may run, no dangerous element or
// attribute may exist, and no link may leave for a non-http(s)/mailto address. The same
// conversation loaded back from the server must be just as inert.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "@playwright/test";
import { baseUrl, expect, shot, test as base, type Chat } from "./fixtures";

interface CorpusEntry {
  id: string;
  category: string;
  note: string;
  text: string;
}

const corpus = (
  JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), "xss_corpus.json"), "utf8")) as {
    entries: CorpusEntry[];
  }
).entries;
const TEXTS = corpus.map((e) => e.text);

/** Where the tray shows what the server sent: the conversation, the side panel, the history list. */
const SCOPES = '[role="log"], .pc-panel, .pc-conversations';
/** What a user can click in those places: links, blocked links, and every button a payload made. */
const CLICKABLE = [
  "a",
  ".pc-link-blocked",
  ".pc-image-link",
  ".pc-tool-card-header",
  ".pc-code-copy",
  ".pc-payload-view",
].join(", ");

/** What the node side saw happen to the page. */
class Guard {
  readonly popups: string[] = [];
  readonly navigations: string[] = [];
  readonly offOrigin: string[] = [];
  readonly dialogs: string[] = [];
  readonly errors: string[] = [];
}

/**
 * Runs in the page before its own scripts: a flag setter can only be seen if it runs, so
 * dialogs and window.open are stubbed to record, link clicks and form submits are recorded
 * and kept from leaving the page, and a MutationObserver audits everything the tray adds
 * (also what exists only for a frame while an answer streams).
 */
function installProbe({ scopes }: { scopes: string }): void {
  type Probe = {
    events: string[];
    clicks: string[];
    breaches: string[];
    scripts: number;
    audit: (root: ParentNode) => string[];
  };
  const w = window as unknown as Window & { __xssProbe: Probe } & Record<string, unknown>;
  const probe: Probe = { events: [], clicks: [], breaches: [], scripts: 0, audit: () => [] };
  w.__xssProbe = probe;
  for (const name of ["alert", "confirm", "prompt", "print"]) {
    w[name] = (...args: unknown[]) => {
      probe.events.push(`${name}(${args.map(String).join(", ")})`);
      return null;
    };
  }
  w.open = (url?: string | URL) => {
    probe.events.push(`window.open(${String(url)})`);
    return null;
  };
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element ? event.target.closest("a[href], area[href]") : null;
      if (link === null) return;
      probe.clicks.push(link.getAttribute("href") ?? "");
      event.preventDefault();
    },
    true,
  );
  document.addEventListener(
    "submit",
    (event) => {
      probe.events.push(`submit(${String((event.target as Element).getAttribute("action"))})`);
      event.preventDefault();
    },
    true,
  );

  const DANGEROUS = new Set(
    "script iframe frame frameset object embed applet svg math img image video audio source track picture canvas form textarea select option meta base link style template noscript portal marquee isindex keygen param foreignobject animate set use dialog".split(
      " ",
    ),
  );
  const URL_ATTRIBUTES = new Set(
    "src srcset srcdoc action formaction data xlink:href poster background ping lowsrc dynsrc http-equiv manifest codebase archive".split(" "),
  );
  const SAFE_HREF = /^(?:https?:|mailto:)/i;
  const BAD_STYLE = /expression|url\s*\(|javascript:|@import|behavior|binding/i;
  const describe = (el: Element) => el.outerHTML.slice(0, 160);

  /** What is wrong with one element of the tray. */
  function check(el: Element, inScope: boolean): string[] {
    const found: string[] = [];
    const tag = el.localName;
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) found.push(`event handler attribute ${name}: ${describe(el)}`);
      if (!inScope) continue;
      if (URL_ATTRIBUTES.has(name)) found.push(`url attribute ${name}: ${describe(el)}`);
      if (name === "href" && (tag !== "a" || !SAFE_HREF.test(attr.value))) found.push(`href: ${describe(el)}`);
      if (name === "style" && BAD_STYLE.test(attr.value)) found.push(`style: ${describe(el)}`);
    }
    if (["iframe", "frame", "object", "embed", "base"].includes(tag)) found.push(`<${tag}> in the document: ${describe(el)}`);
    if (!inScope) return found;
    // The tray's own icons (lucide-react, drawn by its components, never from content) are allowed.
    const icon = tag === "svg" && el.classList.contains("lucide");
    if (DANGEROUS.has(tag) && !icon) found.push(`<${tag}>: ${describe(el)}`);
    // GFM task items are the only inputs markdown makes: disabled checkboxes. The tray's own
    // conversation search box (a component, never from content) is allowed too.
    const searchBox = tag === "input" && el.classList.contains("pc-conversation-search-input");
    if (tag === "input" && !searchBox && !(el.getAttribute("type") === "checkbox" && el.hasAttribute("disabled"))) {
      found.push(`<input>: ${describe(el)}`);
    }
    if (tag === "a" && el.getAttribute("target") === "_blank" && !/\bnoopener\b/.test(el.getAttribute("rel") ?? "")) {
      found.push(`target=_blank without noopener: ${describe(el)}`);
    }
    return found;
  }

  const inScope = (el: Element) => el.closest(scopes) !== null;
  probe.audit = (root: ParentNode) => {
    const found: string[] = [];
    for (const el of Array.from(root.querySelectorAll("*"))) found.push(...check(el, inScope(el)));
    if (document.scripts.length !== probe.scripts) found.push(`${String(document.scripts.length)} script elements, not ${String(probe.scripts)}`);
    return found;
  };
  const observe = () => {
    probe.scripts = document.scripts.length;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "attributes") {
          if (record.target instanceof Element) probe.breaches.push(...check(record.target, inScope(record.target)));
          continue;
        }
        // Where the nodes were added decides, even if they are gone again by now.
        const scoped = record.target instanceof Element && inScope(record.target);
        for (const node of Array.from(record.addedNodes)) {
          if (!(node instanceof Element)) continue;
          for (const el of [node, ...Array.from(node.querySelectorAll("*"))]) {
            probe.breaches.push(...check(el, scoped || inScope(el)));
            if (el.localName === "script") probe.breaches.push(`<script> added: ${describe(el)}`);
          }
        }
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", observe);
  else observe();
}

const guards = new WeakMap<Page, Guard>();

const test = base.extend<{ guard: Guard }>({
  guard: async ({ page }, provide) => {
    const guard = guards.get(page);
    if (guard === undefined) throw new Error("the page fixture installs the guard");
    await provide(guard);
  },
  // The probe must be in place before the `chat` fixture loads the app.
  page: async ({ page }, provide) => {
    const guard = new Guard();
    guards.set(page, guard);
    const origin = new URL(baseUrl()).origin;
    await page.addInitScript(installProbe, { scopes: SCOPES });
    await page.context().route(
      (url) => url.origin !== origin,
      (route) => {
        guard.offOrigin.push(route.request().url());
        return route.abort();
      },
    );
    page.on("popup", (popup) => {
      guard.popups.push(popup.url());
      void popup.close();
    });
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) guard.navigations.push(frame.url());
      else guard.navigations.push(`subframe ${frame.url()}`);
    });
    page.on("dialog", (dialog) => {
      guard.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on("pageerror", (error) => {
      guard.errors.push(error.message);
    });
    await provide(page);
  },
});

// A click that cannot happen (something covers the page) fails fast rather than at the test's timeout.
test.use({ actionTimeout: 5_000 });

interface PageReport {
  flag: unknown;
  events: string[];
  clicks: string[];
  breaches: string[];
}

/** Asserts that nothing ran, nothing dangerous is in the DOM, and nothing left the page. */
async function expectInert(page: Page, guard: Guard): Promise<void> {
  const report = await page.evaluate((): PageReport => {
    const w = window as unknown as {
      __xss?: unknown;
      __xssProbe: { events: string[]; clicks: string[]; breaches: string[]; audit: (root: ParentNode) => string[] };
    };
    const probe = w.__xssProbe;
    return {
      flag: w.__xss ?? null,
      events: probe.events,
      clicks: probe.clicks,
      breaches: [...new Set([...probe.breaches, ...probe.audit(document)])],
    };
  });
  expect(report.flag, "a payload set window.__xss").toBeNull();
  expect(report.events, "dialogs, window.open or form submits").toEqual([]);
  expect(report.breaches, "dangerous elements or attributes in the tray").toEqual([]);
  expect(report.clicks.filter((href) => !/^(?:https?:|mailto:)/i.test(href)), "clicked links to unsafe addresses").toEqual([]);
  expect(guard.dialogs, "dialogs").toEqual([]);
  expect(guard.popups, "popups").toEqual([]);
  expect(guard.offOrigin, "requests that left the app's origin").toEqual([]);
  expect(guard.errors, "uncaught errors in the page").toEqual([]);
  const origin = new URL(baseUrl()).origin;
  const away = guard.navigations.filter((url) => url.startsWith("subframe ") || new URL(url).origin !== origin);
  expect(away, "navigations away from the app, or of frames").toEqual([]);
  expect(page.frames(), "frames").toHaveLength(1);
}

/** Clicks everything clickable in `scope` that a payload made (links are kept from leaving). */
async function clickAll(scope: Locator): Promise<number> {
  const targets = scope.locator(CLICKABLE);
  const count = await targets.count();
  for (let i = 0; i < count; i++) {
    const target = targets.nth(i);
    if (await target.isVisible()) await target.click({ timeout: 2_000 });
  }
  return count;
}

/** Every corpus id the user can read in `scope`. */
async function visibleIds(scope: Locator): Promise<string[]> {
  const text = await scope.innerText();
  return corpus.map((e) => e.id).filter((id) => text.includes(id));
}

async function reload(page: Page, chat: Chat, users: number): Promise<void> {
  await page.reload();
  await expect(chat.log.locator('[data-role="user"]').first()).toBeVisible();
  // A long conversation reopens at its newest page: go back to its start, as a reader would.
  const earlier = chat.log.getByRole("button", { name: "Show earlier messages" });
  while (await earlier.isVisible()) {
    const shown = await chat.log.locator("[data-role]").count();
    await earlier.click();
    await expect.poll(() => chat.log.locator("[data-role]").count()).toBeGreaterThan(shown);
  }
  await expect(chat.log.locator('[data-role="user"]')).toHaveCount(users);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

test.describe("hostile input is shown as text and never runs", () => {
  test("model text: markdown, links, autolinks, raw HTML; live, clicked and reloaded", async ({ chat, page, guard }) => {
    const title = "xss text <img src=x onerror=window.__xss='title'>";
    const answer = await chat.ask(title);
    await expectInert(page, guard);
    // Everything arrived and reads as text: each payload's id is on screen.
    expect(await visibleIds(answer)).toEqual(corpus.map((e) => e.id));
    await expect(answer).toContainText("<script>window.__xss='XSS01'</script>");
    await expect(answer).toContainText("<img src=x onerror=\"window.__xss='XSS06'\">");
    await expect(chat.log.locator('[data-role="user"]')).toHaveText(title);
    // Dangerous links read as their text; safe ones stay links (quotes and all percent-encoded).
    await expect(answer.getByRole("link", { name: "XSS25" })).toHaveCount(0);
    await expect(answer.locator(".pc-link-blocked", { hasText: "XSS25" })).toBeVisible();
    await expect(answer.getByRole("link", { name: "XSS35" })).toHaveAttribute("href", /^https:\/\/example\.com\/%22%20onclick=/);
    const live = await answer.innerText();
    expect(await clickAll(answer)).toBeGreaterThan(20);
    await expectInert(page, guard);
    await shot(page, "xss-01-text");

    await reload(page, chat, 1);
    const reloaded = chat.answers.last();
    expect(await reloaded.innerText()).toBe(live);
    await clickAll(reloaded);
    await expectInert(page, guard);
    // The hostile first message is the conversation's title in the history list.
    await page.getByRole("button", { name: "Conversations" }).click();
    const history = page.getByRole("navigation", { name: "Conversations" });
    // Other tests share the server: find this conversation among theirs.
    const item = history.getByRole("listitem").filter({ hasText: "xss text" }).first();
    await expect(item).toBeVisible();
    await expectInert(page, guard);
    await expect(item).toContainText("onerror=window.__xss='title'");
  });

  test("tool progress, output, error and tool payload: live, expanded and reloaded", async ({ chat, page, guard }) => {
    await chat.send("xss tool");
    const progress = page.getByRole("status", { name: "Running xss_probe" });
    await expect(progress).toContainText("XSS");
    const answer = chat.answers.last();
    await expect(answer).toContainText("Both probes ran.");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    const probe = answer.getByRole("button", { name: /xss_probe/ });
    const failed = answer.getByRole("button", { name: /xss_fail/ });
    await expect(failed).toContainText("failed");
    await probe.click();
    await expectInert(page, guard);
    await failed.click();
    // Output and error are shown verbatim, as text.
    const outputs = answer.locator(".pc-tool-card-body pre");
    await expect(outputs).toHaveCount(4);
    expect(await outputs.nth(1).textContent()).toBe(TEXTS.join("\n"));
    expect(await outputs.nth(3).textContent()).toBe(TEXTS.join("\n"));
    expect(await outputs.nth(0).textContent()).toBe(JSON.stringify({ probe: TEXTS }, null, 2));
    // The tool's payload opens in the side panel through the global registry (from View: it only informs).
    await answer.getByRole("button", { name: "View Note" }).click();
    const panel = page.getByRole("complementary", { name: "Note" });
    expect(await panel.locator(".app-note").textContent()).toBe(TEXTS.join("\n"));
    await expectInert(page, guard);
    await clickAll(answer);
    await clickAll(panel);
    await expectInert(page, guard);
    await shot(page, "xss-02-tool");

    await reload(page, chat, 1);
    const reloaded = chat.answers.last();
    await reloaded.getByRole("button", { name: /xss_probe/ }).click();
    await reloaded.getByRole("button", { name: /xss_fail/ }).click();
    expect(await reloaded.locator(".pc-tool-card-body pre").nth(1).textContent()).toBe(TEXTS.join("\n"));
    await reloaded.getByRole("button", { name: "View Note" }).click();
    expect(await page.getByRole("complementary", { name: "Note" }).locator(".app-note").textContent()).toBe(TEXTS.join("\n"));
    await expectInert(page, guard);
  });

  test("payload fields in the side panel, accepted onto the page and reloaded", async ({ chat, page, guard }) => {
    await chat.ask("xss payload");
    const panel = page.getByRole("complementary", { name: "Project proposal" });
    await expect(panel).toBeVisible();
    await expectInert(page, guard);
    const fields = panel.locator("dd");
    expect(await fields.nth(0).textContent()).toBe(TEXTS.join("\n"));
    expect(await fields.nth(1).textContent()).toBe(TEXTS[0]);
    expect(await fields.nth(2).textContent()).toBe(TEXTS.join(", "));
    expect(await panel.locator(".app-proposal > p").textContent()).toBe(TEXTS.join("\n"));
    await panel.getByRole("button", { name: "Accept" }).click();
    await expect(panel).toHaveCount(0);
    await expect(page.getByTestId("project-tags")).toHaveText(TEXTS.join(", "));
    await chat.log.getByRole("button", { name: "View Project proposal" }).click();
    await panel.getByRole("button", { name: "Reject" }).click();
    await expect(panel).toHaveCount(0);
    await expectInert(page, guard);

    await reload(page, chat, 1);
    // Answered, so it does not reopen by itself: View shows it from the stored answer.
    await expect(chat.answers.last().locator('[data-decision="rejected"]')).toHaveText(/Rejected/);
    await expect(panel).toHaveCount(0);
    await chat.log.getByRole("button", { name: "View Project proposal" }).click();
    await expect(panel).toBeVisible();
    expect(await panel.locator("dd").nth(0).textContent()).toBe(TEXTS.join("\n"));
    await expectInert(page, guard);
  });

  test("choices: hostile questions, labels and values; every option clicked; reloaded", async ({ chat, page, guard }) => {
    // One turn per hostile text (about seventy): more than the default budget on a busy machine.
    test.slow();
    const first = await chat.ask("xss choices");
    await expectInert(page, guard);
    expect(await first.locator(".pc-choice").allTextContents()).toEqual(TEXTS);
    await expect(first.getByRole("group").first()).toHaveAttribute("aria-label", `Choice 1: ${TEXTS[0] ?? ""}`);
    // Each click sends its option's value; the answer echoes it and offers the next entry.
    await clickThrough(chat, ".pc-choice", "xss choice");
    await expectInert(page, guard);
    await shot(page, "xss-04-choices");

    await reload(page, chat, TEXTS.length + 1);
    expect(await chat.answers.first().locator(".pc-choice").allTextContents()).toEqual(TEXTS);
    await expectInert(page, guard);
  });

  test("suggested values and actions: hostile labels and data; every button clicked; reloaded", async ({ chat, page, guard }) => {
    // One turn per hostile text (about seventy): more than the default budget on a busy machine.
    test.slow();
    const first = await chat.ask("xss chips");
    const actions = first.locator(".pc-action");
    await expectInert(page, guard);
    expect(await first.locator(".pc-chip").allTextContents()).toEqual(TEXTS);
    expect(await actions.allTextContents()).toEqual(TEXTS);
    // Server actions answer with their hostile data; client actions get it too.
    const results = chat.log.locator('[data-role="action"]');
    for (let i = 0; i < TEXTS.length; i++) {
      await expect(actions.nth(i)).toBeEnabled();
      await actions.nth(i).click();
      if (i === 0) {
        await expect(results).toHaveCount(1);
        await expectInert(page, guard);
      }
    }
    await expect(results).toHaveCount(Math.ceil(TEXTS.length / 2));
    expect(await results.allTextContents()).toEqual(
      TEXTS.filter((_, i) => i % 2 === 0).map((t) => `Applied the plan for ${t}.`),
    );
    await expectInert(page, guard);
    await clickThrough(chat, ".pc-chip", "xss chip");
    await expectInert(page, guard);
    await shot(page, "xss-05-chips");

    await reload(page, chat, TEXTS.length + 1);
    expect(await chat.answers.first().locator(".pc-chip").allTextContents()).toEqual(TEXTS);
    await expectInert(page, guard);
  });
});

/**
 * Clicks the first `selector` button of the latest answer, once per corpus entry: each click
 * sends `prefix + entry` (shown as the user's message), and the answer echoes it as markdown
 * and offers the next entry.
 */
async function clickThrough(chat: Chat, selector: string, prefix: string): Promise<void> {
  const users = chat.log.locator('[data-role="user"]');
  for (const [i, text] of TEXTS.entries()) {
    const button = chat.answers.last().locator(selector).first();
    expect(await button.textContent()).toBe(text);
    await button.click();
    await expect(users).toHaveCount(i + 2);
    expect(await users.last().textContent()).toBe(`${prefix} ${text}`);
    await expect(chat.answers).toHaveCount(i + 2);
    await expect(chat.page.getByRole("button", { name: "Send" })).toBeVisible();
  }
  const last = chat.answers.last();
  await expect(last).toContainText("That was the last one.");
  await expect(last.locator(selector)).toHaveCount(0);
}
