// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolvePayloadHandler } from "../payloadRegistry";
import { ChartView } from "./ChartView";

const SPEC = {
  mark: "bar",
  data: {
    values: [
      { category: "Trials", articles: 4 },
      { category: "Reviews", articles: 2 },
    ],
  },
  encoding: {
    x: { field: "category", type: "nominal" },
    y: { field: "articles", type: "quantitative" },
    // An expression: evaluated by the interpreter, never compiled.
    color: { condition: { test: "datum.articles > 3", value: "teal" }, value: "gray" },
  },
};

// Vega is imported on first use; on a busy machine that takes a few seconds.
const LOADED = { timeout: 15_000 };

describe("ChartView", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("draws an SVG with one mark per data row, without compiling code", { timeout: 30_000 }, async () => {
    const compiled = vi.spyOn(globalThis, "Function");

    const { container } = render(<ChartView data={{ title: "Articles per category", spec: SPEC }} />);

    await waitFor(() => {
      expect(container.querySelector("figure")?.dataset.status).toBe("ready");
    }, LOADED);
    expect(screen.getByText("Articles per category")).toBeTruthy();
    const marks = container.querySelectorAll("svg .mark-rect path");
    expect(marks).toHaveLength(2);
    // jsdom's selector engine compiles its own matchers ("Resolver"); nothing else may.
    const ours = compiled.mock.calls.filter((args) => !String(args.at(-1)).includes("function Resolver("));
    expect(ours).toEqual([]);
  });

  it("says so when the spec cannot be drawn", { timeout: 30_000 }, async () => {
    const { container } = render(<ChartView data={{ title: "", spec: { mark: "nonsense-mark" } }} />);

    await waitFor(() => {
      expect(container.querySelector("figure")?.dataset.status).toBe("error");
    }, LOADED);
    expect(screen.getByRole("alert").textContent).not.toBe("");
  });

  it("is a built-in payload handler", () => {
    expect(resolvePayloadHandler("chart")).toBeDefined();
  });
});
