// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { FeedbackPublic } from "../types";
import { FeedbackButtons } from "./FeedbackButtons";

const EMOJI = /\p{Extended_Pictographic}/u;

describe("FeedbackButtons", () => {
  it("shows the thumbs as named SVG icons with tooltips, not emoji", () => {
    const { container } = render(<FeedbackButtons feedback={null} onRate={() => Promise.resolve(true)} />);
    for (const name of ["Good answer", "Bad answer"]) {
      const button = screen.getByRole("button", { name });
      expect(button.getAttribute("title")).toBe(name);
      expect(button.querySelector("svg")?.getAttribute("aria-hidden")).toBe("true");
      expect(button.textContent).toBe("");
    }
    expect(container.textContent).not.toMatch(EMOJI);
  });

  it("marks the user's rating as pressed and rates with a click", async () => {
    const onRate = vi.fn(() => Promise.resolve(true));
    const feedback: FeedbackPublic = { rating: "down", comment: "too short", updated_at: "2026-01-01T00:00:00Z" };
    render(<FeedbackButtons feedback={feedback} onRate={onRate} />);
    expect(screen.getByRole("button", { name: "Bad answer" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("button", { name: "Good answer" }).getAttribute("aria-pressed")).toBe("false");

    await userEvent.click(screen.getByRole("button", { name: "Good answer" }));

    expect(onRate).toHaveBeenCalledWith("up", null);
    expect(screen.getByRole("form", { name: "Feedback comment" })).toBeTruthy();
  });
});
