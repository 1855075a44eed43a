// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ReasoningBlock, thoughtFor } from "./ReasoningBlock";

describe("ReasoningBlock", () => {
  it("shows Thinking… with the reasoning as it streams", () => {
    render(<ReasoningBlock text="The user wants CRISPR papers" seconds={null} live />);
    expect(screen.getByRole("status").textContent).toBe("Thinking…");
    expect(screen.getByText("The user wants CRISPR papers")).toBeTruthy();
  });

  it("collapses to Thought for N s once done, and opens to show the reasoning", async () => {
    const { container } = render(<ReasoningBlock text="Search first." seconds={6.4} live={false} />);
    const details = container.querySelector("details");
    expect(details?.open).toBe(false);
    expect(screen.getByText("Thought for 6 s")).toBeTruthy();
    await userEvent.click(screen.getByText("Thought for 6 s"));
    expect(details?.open).toBe(true);
    expect(screen.getByText("Search first.")).toBeTruthy();
  });

  it("says at least one second, and no number when the duration is unknown", () => {
    expect(thoughtFor(0)).toBe("Thought for 1 s");
    expect(thoughtFor(59.6)).toBe("Thought for 60 s");
    expect(thoughtFor(null)).toBe("Thought");
  });
});
