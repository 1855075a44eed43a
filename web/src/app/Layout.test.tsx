// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../test/fakeFetch";
import { Layout } from "./Layout";

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, "", "/");
});

function frame() {
  // jsdom has no scrolling; a navigation scrolls to the top.
  vi.stubGlobal("scrollTo", vi.fn());
  return render(
    <Layout brand="App" nav={[]} email={null} onSignOut={vi.fn()}>
      <p>The app's page</p>
    </Layout>,
  );
}

describe("the frame's account links", () => {
  it("an admin has Usage beside the account; the account link opens the shell's page", async () => {
    fakeFetch({
      "GET /api/auth/me": { body: { id: "1", email: "root@example.com", is_admin: true } },
      "GET /api/auth/api-keys": { body: [] },
    });
    frame();
    const links = screen.getByRole("navigation", { name: "Account" });
    expect(await within(links).findByRole("link", { name: "Usage" })).toBeTruthy();
    await userEvent.click(within(links).getByRole("link", { name: "root@example.com" }));
    expect(window.location.pathname).toBe("/account");
    expect(await screen.findByRole("heading", { name: "Account" })).toBeTruthy();
    expect(screen.queryByText("The app's page")).toBeNull();
  });

  it("anyone else has no Usage link, and keeps the app's page", async () => {
    fakeFetch({ "GET /api/auth/me": { body: { id: "2", email: "a@example.com", is_admin: false } } });
    frame();
    const links = screen.getByRole("navigation", { name: "Account" });
    expect(await within(links).findByRole("link", { name: "a@example.com" })).toBeTruthy();
    expect(within(links).queryByRole("link", { name: "Usage" })).toBeNull();
    expect(screen.getByText("The app's page")).toBeTruthy();
  });
});
