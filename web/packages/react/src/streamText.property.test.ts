// Property tests of the helpers that cut the streamed answer up: `[[tool:N]]` markers,
// ```choices blocks and the markdown block splitter. None may throw on any text, and the
// pieces always give back the text they came from.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockSplitter, completeOpenMarks, splitBlocks } from "./blocks";
import { parseChoices } from "./choices";
import { splitToolMarkers } from "./markers";

const RUNS = 500;

/** Pieces of markdown that move block, fence, list, marker and choices boundaries. */
const tokens = fc.constantFrom(
  "a",
  "word",
  " ",
  "  ",
  "    ",
  "\t",
  "\n",
  "\n\n",
  "\r\n",
  "```",
  "````",
  "~~~",
  "```choices\n",
  "```js",
  "`",
  "**",
  "~~",
  "- ",
  "* ",
  "+ ",
  "1. ",
  "2. ",
  "2) ",
  "10. ",
  "# ",
  "> ",
  "| a | b |\n|---|---|\n",
  "[[tool:",
  "[[tool:0]]",
  "[[tool:12]]",
  "]]",
  "[",
  "]",
  "7",
  "{",
  "}",
  '"',
  "<script>",
  "\u200b",
);

/** Whole lines: lists, fences, indents and blank lines in every order (list items and blanks the most). */
const lines = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom("", "  ") },
      { weight: 3, arbitrary: fc.constantFrom("1. one", "2. two", "10. ten", "3) three", "- dash", "* star", "+ plus") },
      { weight: 2, arbitrary: fc.constantFrom("a", "para **bold", "  indented", "\tindented", "    code", "| a | b |", "|---|---|") },
      fc.constantFrom(
        "```",
        "```js",
        "````",
        "~~~",
        "[[tool:0]] after",
        "```choices",
        '{"question":"Q?","options":[{"label":"A","value":"a"},{"label":"B","value":"b"}]}',
      ),
    ),
    { maxLength: 16, size: "medium" },
  )
  .map((l) => l.join("\n"));

/** Markdown-like text, or any string at all (lone surrogates included). */
const text = fc.oneof(
  { weight: 3, arbitrary: lines },
  fc.string({ unit: tokens, maxLength: 60, size: "medium" }),
  fc.string({ unit: "binary", maxLength: 80, size: "medium" }),
  fc.string({ unit: fc.constantFrom("\n", " ", "`", "~", "-", "1", "2", ".", ")", "a"), maxLength: 80, size: "medium" }),
);

describe("splitToolMarkers", () => {
  it("never throws, and its segments joined give back the text", () => {
    fc.assert(
      fc.property(text, (t) => {
        const segments = splitToolMarkers(t);
        expect(segments.map((s) => (s.kind === "text" ? s.text : s.raw)).join("")).toBe(t);
      }),
      { numRuns: RUNS },
    );
  });

  it("a tool segment is exactly one marker, naming the number written in it; text segments hold none and are never empty", () => {
    fc.assert(
      fc.property(text, (t) => {
        const segments = splitToolMarkers(t);
        segments.forEach((s, i) => {
          if (s.kind === "tool") {
            expect(s.raw).toMatch(/^\[\[tool:\d+\]\]$/);
            expect(s.index).toBe(Number(s.raw.slice(7, -2)));
          } else {
            expect(s.text).not.toBe("");
            expect(s.text).not.toMatch(/\[\[tool:\d+\]\]/);
            expect(segments[i + 1]?.kind).not.toBe("text");
          }
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("text the server neutralized (a zero-width space after the first bracket) never yields a tool card", () => {
    fc.assert(
      fc.property(text, (t) => {
        const neutral = t.replace(/\[(?=\[tool:)/g, "[\u200b");
        expect(splitToolMarkers(neutral).filter((s) => s.kind === "tool")).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});

const nonBlank = fc.string({ unit: "binary", minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== "");
const option = fc.record({ label: nonBlank, value: nonBlank });
const choices = fc.record({ question: nonBlank, options: fc.array(option, { minLength: 2, maxLength: 4 }) });

describe("parseChoices", () => {
  it("never throws on any text or any JSON", () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.jsonValue().map((v) => JSON.stringify(v))), (source) => {
        const parsed = parseChoices(source);
        if (parsed !== null) {
          expect(parsed.options.length).toBeGreaterThanOrEqual(2);
          expect(parsed.options.length).toBeLessThanOrEqual(4);
          for (const o of [parsed.question, ...parsed.options.flatMap((x) => [x.label, x.value])]) {
            expect(o.trim()).not.toBe("");
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("a valid block round-trips: what is written is what is offered, extra fields ignored", () => {
    fc.assert(
      fc.property(choices, fc.jsonValue(), (c, extra) => {
        expect(parseChoices(JSON.stringify(c))).toEqual(c);
        expect(parseChoices(JSON.stringify({ ...c, extra }, null, 2))).toEqual(c);
      }),
      { numRuns: RUNS },
    );
  });

  it("too few or too many options, or a blank label, is not a choice", () => {
    fc.assert(
      fc.property(
        choices,
        fc.oneof(fc.nat(1), fc.integer({ min: 5, max: 8 })),
        fc.constantFrom("", " ", "\n\t"),
        (c, count, blank) => {
          const options = Array.from({ length: count }, (_, i) => c.options[i % c.options.length]);
          expect(parseChoices(JSON.stringify({ ...c, options }))).toBeNull();
          const blanked = c.options.map((o, i) => (i === 0 ? { ...o, label: blank } : o));
          expect(parseChoices(JSON.stringify({ ...c, options: blanked }))).toBeNull();
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("splitBlocks", () => {
  it("never throws; the blocks joined give back the text, and none is empty", () => {
    fc.assert(
      fc.property(text, (t) => {
        const { blocks } = splitBlocks(t);
        expect(blocks.join("")).toBe(t);
        for (const b of blocks) expect(b).not.toBe("");
      }),
      { numRuns: RUNS },
    );
  });

  it("a block boundary is always right after a blank line", () => {
    fc.assert(
      fc.property(text, (t) => {
        const { blocks } = splitBlocks(t);
        for (const b of blocks.slice(0, -1)) expect(b).toMatch(/\n[ \t]*\n$/);
      }),
      { numRuns: RUNS },
    );
  });

  it("completeOpenMarks never throws on any block", () => {
    fc.assert(
      fc.property(text, (t) => {
        for (const b of splitBlocks(t).blocks) expect(typeof completeOpenMarks(b)).toBe("string");
      }),
      { numRuns: RUNS },
    );
  });
});

describe("BlockSplitter (memoized splitting of a growing answer)", () => {
  it("fed the answer one character at a time, gives what splitBlocks gives at every step", () => {
    fc.assert(
      fc.property(text, (t) => {
        const splitter = new BlockSplitter();
        for (let end = 0; end <= t.length; end++) {
          const prefix = t.slice(0, end);
          expect(splitter.split(prefix)).toEqual(splitBlocks(prefix));
        }
      }),
      // Quadratic in the text's length: fewer runs keep it well inside the test timeout.
      { numRuns: 250 },
    );
  });

  it("fed the answer as it streams, in any chunks, gives what splitBlocks gives at every step", () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), (t, cuts) => {
        const ends = [...new Set(cuts.map((c) => c % (t.length + 1)))].sort((a, b) => a - b);
        const splitter = new BlockSplitter();
        for (const end of [...ends, t.length]) {
          const prefix = t.slice(0, end);
          expect(splitter.split(prefix)).toEqual(splitBlocks(prefix));
        }
        expect(splitter.split(t).blocks.join("")).toBe(t);
      }),
      { numRuns: RUNS },
    );
  });

  it("after any other change of the text it starts over and still agrees with splitBlocks", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const splitter = new BlockSplitter();
        splitter.split(a);
        expect(splitter.split(b)).toEqual(splitBlocks(b));
      }),
      { numRuns: RUNS },
    );
  });
});
