// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { applyTheme, storedTheme } from "./theme";
import { ThemeSwitch } from "./ThemeSwitch";

afterEach(() => {
  window.localStorage.clear();
  applyTheme("system");
});

describe("the theme switch", () => {
  it("sets light or dark on <html>, removes it for the system's, and keeps the choice", async () => {
    render(<ThemeSwitch />);
    expect(screen.getByRole("button", { name: "System theme" }).getAttribute("aria-pressed")).toBe("true");
    await userEvent.click(screen.getByRole("button", { name: "Dark theme" }));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(storedTheme()).toBe("dark");
    expect(screen.getByRole("button", { name: "Dark theme" }).getAttribute("aria-pressed")).toBe("true");
    await userEvent.click(screen.getByRole("button", { name: "Light theme" }));
    expect(document.documentElement.dataset.theme).toBe("light");
    await userEvent.click(screen.getByRole("button", { name: "System theme" }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(storedTheme()).toBe("system");
  });

  it("follows a choice made in another tab", () => {
    render(<ThemeSwitch />);
    window.dispatchEvent(new StorageEvent("storage", { key: "pagechat.theme", newValue: "dark" }));
    expect(document.documentElement.dataset.theme).toBe("dark");
  });
});
