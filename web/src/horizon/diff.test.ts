import { describe, expect, it } from "vitest";
import { listChanges, summarize, textChanged } from "./diff";

type Named = { name: string; description: string };
const byName = (t: Named) => t.name;
const same = (a: Named, b: Named) => a.description === b.description;

describe("a proposal's changes", () => {
  it("marks each item kept, changed, added or removed", () => {
    const before = [
      { name: "Base editing", description: "A" },
      { name: "Prime editing", description: "B" },
      { name: "Delivery", description: "C" },
    ];
    const after = [
      { name: "base editing", description: "A" },
      { name: "Prime editing", description: "B, in vivo" },
      { name: "Off-target effects", description: "D" },
    ];
    const changes = listChanges(before, after, byName, same);
    expect(changes.map((c) => [c.kind, (c.after ?? c.before)?.name])).toEqual([
      ["kept", "base editing"],
      ["changed", "Prime editing"],
      ["added", "Off-target effects"],
      ["removed", "Delivery"],
    ]);
    expect(summarize(changes)).toBe("1 added, 1 changed, 1 removed");
    expect(summarize(listChanges(before, before, byName, same))).toBe("no change");
  });

  it("a text that differs only in case or spacing is unchanged", () => {
    expect(textChanged("Gene  editing", "gene editing ")).toBe(false);
    expect(textChanged("Gene editing", "Base editing")).toBe(true);
  });
});
