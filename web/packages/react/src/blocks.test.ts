import { describe, expect, it } from "vitest";
import { BlockSplitter, completeOpenMarks, splitBlocks } from "./blocks";

describe("splitBlocks", () => {
  it("splits at blank lines and loses no text", () => {
    const text = "# Title\n\nFirst paragraph\nstill first.\n\n\nSecond.\n";
    const { blocks, openFence } = splitBlocks(text);
    expect(blocks).toEqual(["# Title\n\n", "First paragraph\nstill first.\n\n\n", "Second.\n"]);
    expect(blocks.join("")).toBe(text);
    expect(openFence).toBe(false);
  });

  it("keeps a fenced code block with blank lines whole", () => {
    const text = "Code:\n\n```python\ndef f():\n\n    return 1\n```\n\nAfter.";
    expect(splitBlocks(text).blocks).toEqual(["Code:\n\n", "```python\ndef f():\n\n    return 1\n```\n\n", "After."]);
  });

  it("needs a closing fence of the same kind and at least the same length", () => {
    const text = "````\na\n```\n\n~~~\n\nb\n````\n\nc";
    expect(splitBlocks(text).blocks).toEqual(["````\na\n```\n\n~~~\n\nb\n````\n\n", "c"]);
  });

  it("says when the text ends inside an unclosed fence", () => {
    expect(splitBlocks("Text\n\n```js\nlet a = 1;\n\n").openFence).toBe(true);
    expect(splitBlocks("Text\n\n```js\nlet a = 1;\n```").openFence).toBe(false);
  });

  it("keeps a loose list and indented continuations in one block", () => {
    const text = "- one\n\n- two\n\n  more of two\n\n1. x\n\n2. y\n\nEnd.";
    expect(splitBlocks(text).blocks).toEqual(["- one\n\n- two\n\n  more of two\n\n", "1. x\n\n2. y\n\n", "End."]);
  });

  it("keeps a table whole", () => {
    const text = "| a | b |\n|---|---|\n| 1 | 2 |\n\nafter";
    expect(splitBlocks(text).blocks).toEqual(["| a | b |\n|---|---|\n| 1 | 2 |\n\n", "after"]);
  });

  it("gives no blocks for empty text", () => {
    expect(splitBlocks("")).toEqual({ blocks: [], openFence: false });
  });
});

describe("completeOpenMarks", () => {
  it.each([
    ["Hello **wor", "Hello **wor**"],
    ["Hello **", "Hello "],
    ["a `co", "a `co`"],
    ["a `", "a "],
    ["~~gone", "~~gone~~"],
    ["**done** and **more", "**done** and **more**"],
    ["closed **bold** text", "closed **bold** text"],
    ["`**` in code", "`**` in code"],
    ["```js\nconst a = `x", "```js\nconst a = `x"],
  ])("%j shows as %j", (source, shown) => {
    expect(completeOpenMarks(source)).toBe(shown);
  });
});

describe("BlockSplitter", () => {
  const doc = [
    "# Title",
    "",
    "1. one",
    "",
    "2. two",
    "",
    "Para **bold**",
    "",
    "```js",
    "a;",
    "",
    "b;",
    "```",
    "",
    "- x",
    "",
    "  - nested",
    "",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "",
    "End.",
  ].join("\n");

  it("gives what splitBlocks gives for every prefix of a growing text", () => {
    for (const step of [1, 3, 7]) {
      const splitter = new BlockSplitter();
      for (let end = 0; end <= doc.length; end += step) {
        const prefix = doc.slice(0, end);
        expect(splitter.split(prefix)).toEqual(splitBlocks(prefix));
      }
      expect(splitter.split(doc)).toEqual(splitBlocks(doc));
    }
  });

  it("keeps finished blocks as the same strings and starts over on other changes", () => {
    const splitter = new BlockSplitter();
    const first = splitter.split("A\n\nB\n\nC").blocks;
    const second = splitter.split("A\n\nB\n\nC and more").blocks;
    expect(second[0]).toBe(first[0]);
    expect(splitter.split("Other\n\ntext")).toEqual(splitBlocks("Other\n\ntext"));
  });
});
