import { describe, expect, it } from "vitest";
import { AXIS_ROOM, fitSpec } from "./chartFit";

const bars = (width: number) => ({ mark: "bar", width, encoding: {} });

describe("fitSpec", () => {
  it("lets a single view fill the width, axes included", () => {
    expect(fitSpec(bars(520), 300)).toEqual({ ...bars(300), autosize: { type: "fit-x", contains: "padding" } });
    expect(fitSpec({ mark: "line" }, 280)).toMatchObject({ width: 280 });
    // A small chart in a wide panel keeps its own size.
    expect(fitSpec(bars(200), 900)).toMatchObject({ width: 200 + AXIS_ROOM });
  });

  it("stacks views side by side that do not fit, each no wider than the width", () => {
    const spec = { title: "t", hconcat: [bars(260), bars(260)] };
    expect(fitSpec(spec, 300)).toEqual({ title: "t", vconcat: [bars(300 - AXIS_ROOM), bars(300 - AXIS_ROOM)] });
    expect(fitSpec(spec, 400)).toEqual({ title: "t", vconcat: [bars(260), bars(260)] });
    expect(fitSpec(spec, 900)).toBe(spec);
  });

  it("narrows stacked views and leaves what it cannot size alone", () => {
    expect(fitSpec({ vconcat: [bars(500), bars(100)] }, 300)).toEqual({ vconcat: [bars(300 - AXIS_ROOM), bars(100)] });
    const facet = { facet: { row: { field: "x" } }, spec: bars(400) };
    expect(fitSpec(facet, 300)).toBe(facet);
    expect(fitSpec(bars(520), 0)).toEqual(bars(520));
  });
});
