// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../../test/fakeFetch";
import { AccountPage } from "./AccountPage";

afterEach(() => {
  vi.unstubAllGlobals();
});

const KEY = { id: "k1", name: "reports", prefix: "pck_ab12", created_at: "2026-11-28T10:00:00Z" };

describe("the account page", () => {
  it("shows why a password change was refused, and that one went through", async () => {
    let tries = 0;
    const sent = fakeFetch({
      "GET /api/auth/api-keys": { body: [] },
      "POST /api/auth/password": () =>
        ++tries === 1 ? { status: 400, body: { detail: "The current password is not right" } } : { body: { other_sessions_ended: 2 } },
    });
    render(<AccountPage email="a@example.com" onSignedOut={vi.fn()} />);
    await userEvent.type(screen.getByLabelText("Current password"), "wrong");
    await userEvent.type(screen.getByLabelText("New password"), "a much longer password");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The current password is not right");
    await userEvent.clear(screen.getByLabelText("Current password"));
    await userEvent.type(screen.getByLabelText("Current password"), "right");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect((await screen.findByText(/Password changed/)).textContent).toBe("Password changed. 2 other sessions were signed out.");
    expect(sent.filter((r) => r.method === "POST").at(-1)?.body).toEqual({ current_password: "right", new_password: "a much longer password" });
    expect(screen.getByLabelText<HTMLInputElement>("New password").value).toBe("");
  });

  it("makes an API key, shows it once, and revokes one after asking", async () => {
    let keys: (typeof KEY)[] = [];
    const sent = fakeFetch({
      "GET /api/auth/api-keys": () => ({ body: keys }),
      "POST /api/auth/api-keys": () => {
        keys = [KEY];
        return { status: 201, body: { ...KEY, key: "pck_ab12-the-secret" } };
      },
      "DELETE /api/auth/api-keys/k1": () => {
        keys = [];
        return { body: { revoked: true } };
      },
    });
    render(<AccountPage email="a@example.com" onSignedOut={vi.fn()} />);
    expect(await screen.findByText("No API keys yet.")).toBeTruthy();
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "reports");
    await userEvent.click(screen.getByRole("button", { name: "Create key" }));
    const shown = await screen.findByRole("status", { name: /Your new key “reports”/ });
    expect(within(shown).getByText("pck_ab12-the-secret").tagName).toBe("CODE");
    const list = await screen.findByRole("list", { name: "Your API keys" });
    expect(within(list).getByText("pck_ab12…")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByText("pck_ab12-the-secret")).toBeNull();

    await userEvent.click(within(list).getByRole("button", { name: "Revoke reports" }));
    await userEvent.click(within(list).getByRole("button", { name: "Revoke “reports”" }));
    expect(await screen.findByText("No API keys yet.")).toBeTruthy();
    expect(sent.map((r) => `${r.method} ${r.url}`)).toContain("DELETE /api/auth/api-keys/k1");
  });

  it("signs out everywhere after asking, then hands back to the sign-in", async () => {
    const sent = fakeFetch({
      "GET /api/auth/api-keys": { body: [] },
      "POST /api/auth/logout-everywhere": { body: { sessions_ended: 3 } },
    });
    const onSignedOut = vi.fn();
    render(<AccountPage email="a@example.com" onSignedOut={onSignedOut} />);
    await userEvent.click(screen.getByRole("button", { name: "Sign out everywhere" }));
    expect(sent.some((r) => r.url === "/api/auth/logout-everywhere")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Yes, sign out everywhere" }));
    await vi.waitFor(() => {
      expect(onSignedOut).toHaveBeenCalledOnce();
    });
  });
});
