import { baseUrl, expect, shot, test, TOKEN } from "./fixtures";

const LONG_ANSWER = Array.from({ length: 80 }, (_, i) => `Sentence number ${String(i + 1)} of a long answer.`).join(" ");

test.describe("signing in", () => {
  test("the login form signs in against the server and shows the demo page", async ({ page }) => {
    await page.goto(baseUrl());
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await page.getByLabel("Email").fill("e2e@example.com");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Incorrect email or password");
    await shot(page, "00-login-error");
    await page.getByLabel("Password").fill("e2e-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "pagechat demo" })).toBeVisible();
    await expect(page.getByText("e2e@example.com")).toBeVisible();
    // The session is an HttpOnly cookie: no script can read it, and nothing is in storage.
    const session = (await page.context().cookies()).find((c) => c.name === "pagechat_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(await page.evaluate(() => document.cookie)).not.toContain("pagechat_session");
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(TOKEN);
    await page.getByRole("button", { name: /Assistant/ }).click();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
    await expect(page.getByRole("log")).toContainText("Ask about this project");
    await shot(page, "01-empty-welcome");
  });

  test("a rejected session signs the user out, and a token left by an old version is removed", async ({ page }) => {
    await page.context().addCookies([{ name: "pagechat_session", value: "stale-token", url: baseUrl() }]);
    await page.addInitScript(() => {
      localStorage.setItem("pagechat.token", "stale-token");
    });
    await page.goto(baseUrl());
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("pagechat.token"))).toBeNull();
  });

  test("signing out ends the session on the server", async ({ chat, page }) => {
    await expect(chat.input).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  });
});

test.describe("the visual states of a turn", () => {
  test("user bubble, thinking, then the final answer", async ({ chat, page }) => {
    await chat.send("think first");
    const bubble = chat.log.locator('[data-role="user"]').last();
    await expect(bubble).toHaveText("think first");
    await expect(chat.log.locator('[data-status="thinking"]')).toContainText("Thinking...");
    await shot(page, "02-user-bubble-thinking");
    await expect(chat.answers.last()).toHaveText("Done thinking.");
    await expect(chat.log.locator('[data-status="thinking"]')).toHaveCount(0);
    await expect(chat.input).toBeFocused();
    await shot(page, "03-final-message");
  });

  test("tool progress in an amber card, then an inline tool card that expands", async ({ chat, page }) => {
    await chat.send("search with the tool");
    const progress = page.getByRole("status", { name: "Running slow_search" });
    await expect(progress).toContainText("Searching PubMed…");
    await expect(chat.log).toContainText("Let me search for that.");
    await expect(progress.getByRole("progressbar")).toBeVisible();
    await expect(progress).toContainText(/Fetched [12] of 3/);
    await shot(page, "04-tool-progress");
    const answer = chat.answers.last();
    await expect(answer).toContainText("I found 3 articles about CRISPR");
    await expect(progress).toHaveCount(0);
    const card = answer.getByRole("button", { name: /slow_search/ });
    await expect(card).toHaveAttribute("aria-expanded", "false");
    await expect(answer).not.toContainText("[[tool:0]]");
    await expect(answer).not.toContainText("Found 3 articles about CRISPR: A, B, C.");
    await card.click();
    await expect(card).toHaveAttribute("aria-expanded", "true");
    await expect(answer).toContainText('"query": "CRISPR"');
    await expect(answer).toContainText("Found 3 articles about CRISPR: A, B, C.");
    await shot(page, "05-tool-card-expanded");
  });

  test("a failed tool call is shown as failed", async ({ chat }) => {
    const answer = await chat.ask("fail please");
    const card = answer.getByRole("button", { name: /broken_tool/ });
    await expect(card).toContainText("failed");
    await card.click();
    await expect(answer).toContainText("the archive is offline");
  });

  test("streaming text, then Stop keeps the partial answer marked stopped", async ({ chat, page }) => {
    await chat.send("a long answer please");
    await expect(chat.streaming).toContainText("Sentence number 3 ");
    await shot(page, "06-streaming");
    await page.getByRole("button", { name: "Stop" }).click();
    const stopped = chat.log.locator('[data-role="assistant"][data-status="cancelled"]');
    await expect(stopped).toContainText("Stopped");
    const text = (await stopped.textContent()) ?? "";
    expect(text).toContain("Sentence number 1 of a long answer.");
    expect(text).not.toContain("Sentence number 80 ");
    await page.waitForTimeout(500);
    expect(await stopped.textContent()).toBe(text);
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    await shot(page, "07-stopped");
  });

  test("Esc stops a running answer", async ({ chat }) => {
    await chat.send("another long one");
    await expect(chat.streaming).toContainText("Sentence number 2 ");
    await chat.input.press("Escape");
    await expect(chat.log.locator('[data-status="cancelled"]')).toContainText("Stopped");
  });

  test("an answer cut off by the length limit says so, and Continue finishes the same answer", async ({ chat, page }) => {
    const answer = await chat.ask("cutoff please");
    const note = answer.getByRole("note");
    await expect(note).toHaveText(/Cut off: the answer reached its length limit\./);
    await shot(page, "05b-cut-off");
    await note.getByRole("button", { name: "Continue" }).click();
    await expect(chat.answers.first()).toContainText(
      "This answer stops in the middle of a sent And that is the rest of the answer.",
    );
    await expect(chat.answers).toHaveCount(1);
    await expect(chat.log.getByRole("note")).toHaveCount(0);
    await page.reload();
    await expect(chat.answers).toHaveCount(1);
    await expect(chat.answers.first()).toContainText("And that is the rest of the answer.");
    await expect(chat.log.getByRole("note")).toHaveCount(0);
  });

  test("the model's reasoning streams as Thinking…, then folds to Thought for N s, the same after a reload", async ({ chat, page }) => {
    await chat.send("reason it through");
    const live = chat.log.locator('[data-reasoning="live"]');
    await expect(live.getByRole("status")).toHaveText("Thinking…");
    await expect(live).toContainText("Step 2 of weighing the question.");
    await shot(page, "05c-reasoning-live");
    await expect(chat.answers.last()).toContainText("The reasoned answer.");
    const folded = chat.answers.last().locator('[data-reasoning="done"]');
    const summary = folded.locator("summary");
    await expect(summary).toHaveText(/^Thought for [12] s$/);
    // Collapsed: the reasoning is there to read, not in the way.
    await expect(folded.getByText("Step 6 of weighing the question.")).toBeHidden();
    await summary.click();
    await expect(folded.getByText(/Step 1 of weighing.*Step 6 of weighing the question\./)).toBeVisible();
    const label = await summary.textContent();
    await page.reload();
    const reloaded = chat.answers.last().locator('[data-reasoning="done"]');
    await expect(reloaded.locator("summary")).toHaveText(label ?? "");
    await reloaded.locator("summary").click();
    await expect(reloaded.getByText(/Step 1 of weighing.*Step 6 of weighing the question\./)).toBeVisible();
    await expect(chat.answers.last()).toContainText("The reasoned answer.");
  });

  test("a model error keeps the partial text and offers Retry", async ({ chat, page }) => {
    await chat.send("cause an error");
    const failed = chat.log.locator('[data-role="assistant"][data-status="error"]');
    await expect(failed).toContainText("Starting the answer");
    await expect(failed.getByRole("alert")).toContainText("the model broke down");
    await shot(page, "08-error-retry");
    await failed.getByRole("button", { name: "Retry" }).click();
    await expect(chat.log.locator('[data-role="user"]').filter({ hasText: "cause an error" })).toHaveCount(2);
    await expect(chat.log.locator('[data-status="error"]')).toHaveCount(2);
  });
});

test.describe("resuming", () => {
  test("a connection dropped mid-answer resumes from the last event: nothing lost, nothing twice", async ({
    chat,
    page,
    request,
  }) => {
    const resumes: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/events")) resumes.push(r.headers()["last-event-id"] ?? "");
    });
    const armed = await request.post(`${baseUrl()}/__e2e__/drop?after=8`);
    expect(armed.status()).toBe(204);
    const answer = await chat.ask("long answer despite a broken connection");
    await expect(answer).toHaveText(LONG_ANSWER);
    // One resume, after the events the first response delivered.
    expect(resumes).toHaveLength(1);
    expect(Number(resumes[0])).toBeGreaterThanOrEqual(8);
  });

  test("@reload a reload mid-answer replays the running turn and follows it to the end", async ({ chat, page }) => {
    await chat.send("long answer across a reload");
    await expect(chat.streaming).toContainText("Sentence number 5 ");
    await page.reload();
    await expect(chat.log.locator('[data-role="user"]')).toHaveText(["long answer across a reload"]);
    const answer = chat.answers.last();
    await expect(answer).toHaveText(LONG_ANSWER, { timeout: 20_000 });
    await expect(answer).toHaveAttribute("data-status", "complete");
  });

  test("@reload a reloaded conversation renders exactly as it was live", async ({ chat, page }) => {
    await chat.ask("use the tool");
    await chat.ask("show choices");
    await chat.log.getByRole("button", { name: "Use RSS feed" }).click();
    await expect(chat.answers).toHaveCount(3);
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    await chat.ask("payload please");
    await page.getByRole("complementary", { name: "Project proposal" }).getByRole("button", { name: "Close panel" }).click();
    await chat.ask("suggest something");
    await chat.log.getByRole("button", { name: "Apply plan" }).click();
    await expect(chat.log).toContainText("Applied the plan for Demo.");
    await chat.send("a long answer to stop");
    await expect(chat.streaming).toContainText("Sentence number 2 ");
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(chat.log.locator('[data-status="cancelled"]')).toHaveCount(1);
    // Times aside: a live message shows the browser's clock until the conversation is read back.
    const untimed = (html: string) => html.replace(/<time [^>]*>/g, "<time>");
    const live = untimed(await chat.log.innerHTML());
    await shot(page, "09-before-reload");
    await page.reload();
    await expect(chat.log.locator('[data-status="cancelled"]')).toHaveCount(1);
    await expect(chat.log.locator('[data-role="user"]')).toHaveCount(6);
    await page.getByRole("complementary", { name: "Project proposal" }).waitFor({ state: "detached" }).catch(() => undefined);
    expect(untimed(await chat.log.innerHTML())).toBe(live);
    await shot(page, "10-after-reload");
  });
});

test.describe("answers with structure", () => {
  test("choices are buttons; the answer is sent and they are disabled afterwards", async ({ chat, page }) => {
    const answer = await chat.ask("give me choices");
    const group = answer.getByRole("group", { name: "How should I add the source?" });
    await expect(group.getByRole("button")).toHaveCount(2);
    await expect(answer).not.toContainText('"question"');
    await shot(page, "11-choices");
    await group.getByRole("button", { name: "Use RSS feed" }).click();
    await expect(chat.log.locator('[data-role="user"]').last()).toHaveText("rss");
    await expect(group.getByRole("button", { name: "Use RSS feed" })).toBeDisabled();
    await expect(group.getByRole("button", { name: "Use RSS feed" })).toHaveAttribute("data-selected", "");
    await expect(group.getByRole("button", { name: "Use agentic extraction" })).toBeDisabled();
    await expect(chat.input).toBeFocused();
    await shot(page, "12-choices-answered");
  });

  test("a payload opens the side panel; accept applies it to the page; View reopens it", async ({ chat, page }) => {
    await chat.ask("make a payload");
    const panel = page.getByRole("complementary", { name: "Project proposal" });
    await expect(panel).toContainText("Renamed by the assistant");
    await expect(panel.locator("svg.lucide-clipboard-list")).toBeVisible();
    await shot(page, "13-payload-panel");
    await panel.getByRole("button", { name: "Accept" }).click();
    await expect(panel).toHaveCount(0);
    await expect(page.getByLabel("Name")).toHaveValue("Renamed by the assistant");
    await expect(page.getByTestId("project-tags")).toHaveText("crispr, review");
    await chat.ask("thanks");
    await chat.log.getByRole("button", { name: "View Project proposal" }).click();
    await expect(panel).toBeVisible();
    await chat.input.press("Escape");
    await expect(panel).toHaveCount(0);
  });

  test("@reload an accepted proposal does not reopen after a reload, and shows as accepted", async ({ chat, page }) => {
    const answer = await chat.ask("make a payload");
    const panel = page.getByRole("complementary", { name: "Project proposal" });
    await expect(panel).toContainText("Renamed by the assistant");
    const recorded = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/decision"));
    await panel.getByRole("button", { name: "Accept" }).click();
    expect((await recorded).status()).toBe(200);
    await expect(panel).toHaveCount(0);
    await expect(answer.locator('[data-decision="accepted"]')).toHaveText(/Accepted/);

    await page.reload();
    const reloaded = chat.answers.last();
    await expect(reloaded).toContainText("Here is my proposal.");
    await expect(reloaded.locator('[data-decision="accepted"]')).toHaveText(/Accepted/);
    await expect(panel).toHaveCount(0);
    await shot(page, "13b-accepted-card-after-reload");
    await reloaded.getByRole("button", { name: "View Project proposal" }).click();
    await expect(panel).toContainText("Renamed by the assistant");
  });

  test("a tool payload renders through the global registry, opened from the answer: it waits for no decision", async ({ chat, page }) => {
    const answer = await chat.ask("take a note");
    const panel = page.getByRole("complementary", { name: "Note" });
    await expect(panel).toHaveCount(0);
    await answer.getByRole("button", { name: "View Note" }).click();
    await expect(panel).toContainText("Remember the deadline.");
  });

  test("suggested values, client actions and server actions", async ({ chat, page }) => {
    await chat.ask("suggest next steps");
    await shot(page, "14-suggestions");
    await chat.log.getByRole("button", { name: "Make it high" }).click();
    await expect(page.getByLabel("Priority")).toHaveValue("high");
    await chat.log.getByRole("button", { name: "Apply plan" }).click();
    await expect(chat.log.locator('[data-role="action"]')).toHaveText("Applied the plan for Demo.");
    await chat.log.getByRole("button", { name: "Yes, go ahead" }).click();
    await expect(chat.log.locator('[data-role="user"]').last()).toHaveText("yes, go ahead");
    await expect(chat.answers.last()).toHaveText("You said: yes, go ahead");
    await expect(chat.log.getByRole("button", { name: "No" })).toBeDisabled();
    await chat.ask("suggest again");
    await chat.log.getByRole("button", { name: "Close chat" }).last().click();
    await expect(chat.tray).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Assistant/ })).toBeFocused();
  });

  test("markdown renders safely: no raw HTML, only safe links, code with a copy button", async ({ chat, page }) => {
    const answer = await chat.ask("markdown please");
    await expect(answer.getByRole("heading", { name: "Findings" })).toBeVisible();
    await expect(answer.locator("table")).toContainText("BRCA1");
    await expect(answer.locator("script")).toHaveCount(0);
    await expect(answer.locator("img")).toHaveCount(0);
    await expect(answer).toContainText("<script>window.__pwned = true</script>");
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    const safe = answer.getByRole("link", { name: "safe link" });
    await expect(safe).toHaveAttribute("href", "https://example.com/docs");
    await expect(safe).toHaveAttribute("target", "_blank");
    await expect(safe).toHaveAttribute("rel", "noopener noreferrer");
    await expect(answer.getByRole("link", { name: "a javascript link" })).toHaveCount(0);
    await expect(answer).toContainText("a javascript link");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await answer.getByRole("button", { name: "Copy code" }).click();
    await expect(answer.getByRole("button", { name: "Copy code" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('def greet(name):\n    return f"hello {name}"');
    await shot(page, "15-markdown");
  });

  test("the page context goes with every message", async ({ chat, page }) => {
    await page.getByLabel("Name").fill("Blue Whale");
    await expect(await chat.ask("what is my context?")).toHaveText("Your project is called Blue Whale.");
  });
});

test.describe("the tray", () => {
  test("keyboard: Enter sends, Shift+Enter adds a line, everything reachable by Tab", async ({ chat, page }) => {
    await chat.input.press("Shift+Enter");
    await chat.input.pressSequentially("two");
    await expect(chat.input).toHaveValue("\ntwo");
    await chat.input.fill("");
    await chat.input.pressSequentially("first line");
    await chat.input.press("Shift+Enter");
    await chat.input.pressSequentially("second line");
    await chat.input.press("Enter");
    await expect(chat.log.locator('[data-role="user"]').last()).toHaveText("first line\nsecond line");
    await expect(chat.input).toBeFocused();
    await expect(chat.input).toHaveValue("");
    await chat.ask("use the tool, by keyboard");
    const card = chat.answers.last().getByRole("button", { name: /slow_search/ });
    const reached: string[] = [];
    await page.getByRole("button", { name: "Conversations" }).focus();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      reached.push(
        await page.evaluate(() => {
          const el = document.activeElement;
          return el?.getAttribute("aria-label") ?? el?.textContent ?? "";
        }),
      );
      if (await card.evaluate((el) => el === document.activeElement)) break;
    }
    expect(reached.slice(0, 2)).toEqual(["New conversation", "Close chat"]);
    await expect(card).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(card).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Space");
    await expect(card).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(card).toBeFocused();
  });

  test("auto-scroll pauses when the user scrolls up and a button jumps back", async ({ chat, page }) => {
    await chat.send("long text to scroll");
    // Scrolling up needs something to scroll: wait until the answer overflows the log.
    await expect
      .poll(() => chat.log.evaluate((el) => el.scrollHeight - el.clientHeight), { timeout: 20_000 })
      .toBeGreaterThan(150);
    const atBottom = () =>
      chat.log.evaluate((el) => Math.abs(el.scrollHeight - el.scrollTop - el.clientHeight) < 40);
    expect(await atBottom()).toBe(true);
    await chat.log.hover();
    await page.mouse.wheel(0, -400);
    const jump = page.getByRole("button", { name: "Jump to latest" });
    await expect(jump).toBeVisible();
    const top = await chat.log.evaluate((el) => el.scrollTop);
    const shown = async () => (await chat.streaming.textContent())?.length ?? 0;
    const before = await shown();
    await expect.poll(shown).toBeGreaterThan(before + 150);
    expect(await chat.log.evaluate((el) => el.scrollTop)).toBe(top);
    await shot(page, "16-jump-to-latest");
    await jump.click();
    expect(await atBottom()).toBe(true);
    await expect(jump).toHaveCount(0);
    const stop = page.getByRole("button", { name: "Stop" });
    if (await stop.isVisible()) await stop.click();
  });

  test("a long conversation opens at its newest page; scrolling up loads the earlier ones in place", async ({
    chat,
    page,
  }) => {
    const headers = { Authorization: `Bearer ${TOKEN}` };
    let conversationId: string | null = null;
    for (let i = 0; i < 40; i++) {
      const data: Record<string, unknown> = { message: `paged message ${i}`, conversation_id: conversationId };
      const response = await page.request.post(`${baseUrl()}/api/chat/stream`, { headers, data });
      conversationId = response.headers()["x-conversation-id"] ?? null;
    }
    await page.getByRole("button", { name: "Conversations" }).click();
    await page.getByRole("navigation", { name: "Conversations" }).getByText("paged message 0").click();
    const users = chat.log.locator('[data-role="user"]');
    // 80 messages: the newest 50 are shown, from the answer to message 14 on.
    await expect(users).toHaveCount(25);
    await expect(users.first()).toHaveText("paged message 15");
    const earlier = chat.log.getByRole("button", { name: "Show earlier messages" });
    await expect(earlier).toBeVisible();

    const reading = users.filter({ hasText: "paged message 15" });
    await chat.log.evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect(users).toHaveCount(40);
    await expect(users.first()).toHaveText("paged message 0");
    await expect(earlier).toHaveCount(0);
    // What the user was reading is still in view, not pushed away by what came before it.
    const box = await reading.boundingBox();
    const log = await chat.log.boundingBox();
    expect(box && log && box.y >= log.y && box.y < log.y + log.height).toBe(true);
    await shot(page, "18-earlier-messages");
  });

  test("conversations: new, switch, rename, delete", async ({ chat, page }) => {
    await chat.ask("first conversation marker");
    await page.getByRole("button", { name: "New conversation" }).click();
    await expect(chat.log.locator('[data-role="user"]')).toHaveCount(0);
    await chat.ask("second conversation marker");
    await page.getByRole("button", { name: "Conversations" }).click();
    const nav = page.getByRole("navigation", { name: "Conversations" });
    const first = nav.getByRole("listitem").filter({ hasText: "first conversation marker" });
    await expect(first).toBeVisible();
    await shot(page, "17-conversations");
    await first.getByRole("button", { name: /^Rename/ }).click();
    await nav.getByRole("textbox", { name: "Conversation title" }).fill("Renamed talk");
    await nav.getByRole("textbox", { name: "Conversation title" }).press("Enter");
    await expect(nav.getByText("Renamed talk")).toBeVisible();
    await nav.getByText("Renamed talk").click();
    await expect(chat.log.locator('[data-role="user"]')).toHaveText(["first conversation marker"]);
    await page.getByRole("button", { name: "Conversations" }).click();
    const second = nav.getByRole("listitem").filter({ hasText: "second conversation marker" });
    await second.getByRole("button", { name: /^Delete/ }).click();
    await second.getByRole("button", { name: "Delete" }).click();
    await expect(second).toHaveCount(0);
    const list = await page.request.get(`${baseUrl()}/api/conversations?limit=100`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const titles = ((await list.json()) as { items: { title: string }[] }).items.map((c) => c.title);
    expect(titles).toContain("Renamed talk");
    expect(titles.some((t) => t.includes("second conversation marker"))).toBe(false);
  });

  test("the width can be changed by dragging and is remembered", async ({ chat, page }) => {
    const handle = page.getByRole("separator", { name: "Resize chat" });
    const box = await handle.boundingBox();
    if (box === null) throw new Error("no resize handle");
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x - 150, box.y + 200, { steps: 5 });
    await page.mouse.up();
    const width = await chat.tray.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(540);
    await page.reload();
    await expect(chat.tray).toBeVisible();
    expect(await chat.tray.evaluate((el) => el.getBoundingClientRect().width)).toBe(width);
  });
});
