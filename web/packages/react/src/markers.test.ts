import { describe, expect, it } from "vitest";
import { splitToolMarkers } from "./markers";

describe("splitToolMarkers", () => {
  it("splits text around markers, in order", () => {
    expect(splitToolMarkers("Let me look.[[tool:0]]Found it.[[tool:12]]")).toEqual([
      { kind: "text", text: "Let me look." },
      { kind: "tool", index: 0, raw: "[[tool:0]]" },
      { kind: "text", text: "Found it." },
      { kind: "tool", index: 12, raw: "[[tool:12]]" },
    ]);
  });

  it("counts only the exact syntax", () => {
    for (const text of ["[[tool: 1]]", "[[tool:a]]", "[[Tool:1]]", "[tool:1]", "[[tool:1]", "[[tool:-1]]", "[[tool:]]"]) {
      expect(splitToolMarkers(text)).toEqual([{ kind: "text", text }]);
    }
  });

  it("gives nothing for empty text and no empty text segments", () => {
    expect(splitToolMarkers("")).toEqual([]);
    expect(splitToolMarkers("[[tool:0]][[tool:1]]").map((s) => s.kind)).toEqual(["tool", "tool"]);
  });
});
