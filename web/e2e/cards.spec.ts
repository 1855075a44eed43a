// Cards with no front-end code: an app the shell has no screens for (e2e/recipes_app.py) gets
// the generic app, bound to its page; its tool's payload shows as the schema card, and Accept
// runs the page's accept action on the server (e2e/cards_server.py).
import { resolve } from "node:path";
import { test as base, expect } from "@playwright/test";
import { Chat, shot } from "./fixtures";
import { startPythonServer, webRoot, type PythonServer } from "./servers";

const test = base.extend<object, { cards: PythonServer }>({
  cards: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      const server = await startPythonServer("cards_server.py", ["--static", resolve(webRoot, "dist")], {
        name: "the cards server",
        timeoutMs: 60_000,
        graceMs: 10_000,
      });
      await provide(server);
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ cards }, provide) => {
    await provide(cards.url);
  },
});

test("a payload with no card shows from its schema and Accept runs the page's action", async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem("pagechat.open", "true");
  });
  await page.goto("/");
  await page.getByLabel("Email").fill("cards@example.com");
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Sign in" }).click();

  // The generic app: a page per registered page, the first shown.
  await expect(page.getByRole("heading", { name: "Recipes", level: 1 })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link")).toHaveText(["Recipes", "Shopping"]);
  await expect(nav.getByRole("link", { name: "Recipes" })).toHaveAttribute("aria-current", "page");

  // The tool is the recipes page's own: it runs only when the tray names that page.
  const answer = await new Chat(page).ask("find me pancakes");
  await expect(answer).toContainText("Here is a recipe.");

  // The page accepts recipes, so the card opens by itself as a proposal.
  const panel = page.getByRole("complementary", { name: "Recipe", exact: true });
  const card = panel.getByRole("article", { name: "Recipe" });
  await expect(card).toBeVisible();
  const fields = card.locator(".pc-schema-dl").first();
  await expect(fields.getByRole("definition").first()).toHaveText("Pancakes");
  await expect(fields).toContainText("Servings");
  await expect(fields).toContainText("Mar 5, 2024");
  const link = card.getByRole("link", { name: "https://example.org/recipes/pancakes" });
  await expect(link).toHaveAttribute("href", "https://example.org/recipes/pancakes");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  const table = card.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["Item", "Grams"]);
  await expect(table.getByRole("row").nth(2).getByRole("cell")).toHaveText(["Milk", "1,500.5"]);
  await expect(card.getByRole("listitem")).toHaveText(["Whisk everything", "Fry in butter"]);
  await expect(card.getByRole("heading", { name: "Nutrition" })).toBeVisible();
  await shot(page, "cards-01-schema-card");

  await page.emulateMedia({ colorScheme: "dark" });
  const background = await card.evaluate((el) => getComputedStyle(el.closest(".pc-panel") ?? el).backgroundColor);
  expect(background).toBe("rgb(21, 27, 35)");
  await shot(page, "cards-02-schema-card-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // Accept runs save_recipe on the server with the payload's data; its answer joins the chat.
  await card.getByRole("button", { name: "Accept" }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole("log").locator('[data-role="action"]')).toContainText("Saved Pancakes (1 saved)");
  await expect(answer.getByText("Accepted")).toBeVisible();
});
