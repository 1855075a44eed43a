import { describe, expect, it } from "vitest";
import { choicesAsText, parseChoices } from "./choices";

const option = (label: string, value: string) => ({ label, value });
const block = (value: unknown) => JSON.stringify(value);

describe("parseChoices", () => {
  it("reads a question with 2 to 4 options", () => {
    for (const count of [2, 3, 4]) {
      const options = Array.from({ length: count }, (_, i) => option(`Label ${String(i)}`, `value-${String(i)}`));
      expect(parseChoices(block({ question: "Which?", options }))).toEqual({ question: "Which?", options });
    }
  });

  it("ignores extra fields", () => {
    expect(
      parseChoices(block({ question: "Q", options: [{ ...option("A", "a"), icon: "x" }, option("B", "b")], context: "c" })),
    ).toEqual({ question: "Q", options: [option("A", "a"), option("B", "b")] });
  });

  it.each([
    ["not JSON", "{question: 'Q'"],
    ["an array", block([option("A", "a"), option("B", "b")])],
    ["one option", block({ question: "Q", options: [option("A", "a")] })],
    ["five options", block({ question: "Q", options: ["a", "b", "c", "d", "e"].map((v) => option(v, v)) })],
    ["an empty label", block({ question: "Q", options: [option("", "a"), option("B", "b")] })],
    ["a blank value", block({ question: "Q", options: [option("A", "  "), option("B", "b")] })],
    ["a numeric value", block({ question: "Q", options: [{ label: "A", value: 1 }, option("B", "b")] })],
    ["no question", block({ options: [option("A", "a"), option("B", "b")] })],
    ["an empty question", block({ question: "", options: [option("A", "a"), option("B", "b")] })],
    ["options not a list", block({ question: "Q", options: "A or B" })],
    ["an option not an object", block({ question: "Q", options: ["A", "B"] })],
  ])("rejects %s", (_, source) => {
    expect(parseChoices(source)).toBeNull();
  });
});

describe("choicesAsText", () => {
  it("writes a choices block as its question and options, and leaves an invalid one", () => {
    const block = '```choices\n{"question": "What next?", "options": [{"label": "List", "value": "List my streams"}, {"label": "Search", "value": "s"}]}\n```';
    expect(choicesAsText(`Pick one.\n\n${block}\n\nThanks.`)).toBe("Pick one.\n\nWhat next?\n- List\n- Search\n\nThanks.");
    expect(choicesAsText("```choices\nnot json\n```")).toBe("```choices\nnot json\n```");
  });
});
