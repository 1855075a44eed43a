// Splits markdown into top-level blocks so a streaming answer re-renders only its last block.
//
// A block ends at a blank line outside a fenced code block, unless the next line continues
// it (an indented line, or the next item of a list). Rendering the blocks one by one gives
// the same result as rendering the whole text for everything but reference-style link
// definitions and footnotes that span blocks.

export interface Blocks {
  blocks: string[];
  /** The text ends inside a fenced code block that is not closed yet. */
  openFence: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}([-+*]|\d{1,9}([.)]))(?:[ \t]|$)/;

/** A list item's kind: its bullet, or its number's delimiter; a different kind starts a new list. */
function listKind(line: string): string | null {
  const match = LIST_ITEM.exec(line);
  if (match === null) return null;
  return match[2] ?? match[1] ?? null;
}
const BLANK = /^[ \t]*$/;

interface Fence {
  char: string;
  length: number;
}

function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === fence.char && match[1].length >= fence.length;
}

export function splitBlocks(text: string): Blocks {
  const blocks: string[] = [];
  let start = 0;
  let pos = 0;
  let fence: Fence | null = null;
  let hasContent = false;
  let list: string | null = null;
  let afterBlank = false;
  while (pos < text.length) {
    const newline = text.indexOf("\n", pos);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(pos, lineEnd);
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
    } else if (BLANK.test(line)) {
      if (hasContent) afterBlank = true;
    } else {
      if (afterBlank) {
        const continues =
          line.startsWith(" ") || line.startsWith("\t") || (list !== null && listKind(line) === list);
        if (!continues) {
          blocks.push(text.slice(start, pos));
          start = pos;
          hasContent = false;
        }
        afterBlank = false;
      }
      if (!hasContent) {
        hasContent = true;
        list = listKind(line);
      }
      const open = FENCE_OPEN.exec(line);
      if (open?.[1] !== undefined && !(open[1][0] === "`" && (open[2] ?? "").includes("`"))) {
        fence = { char: open[1][0] ?? "`", length: open[1].length };
      }
    }
    pos = newline === -1 ? text.length : newline + 1;
  }
  if (start < text.length) blocks.push(text.slice(start));
  return { blocks, openFence: fence !== null };
}

/**
 * Closes emphasis and inline code left open at the end of a streaming block, so `**bo`
 * shows as bold text rather than as asterisks until the closing marks arrive. Only for
 * display of the block still being written; blocks with fenced code are left alone.
 */
export function completeOpenMarks(source: string): string {
  if (/^ {0,3}(?:`{3,}|~{3,})/m.test(source)) return source;
  const ticks = source.split("`").length - 1;
  if (ticks % 2 === 1) return source.endsWith("`") ? source.slice(0, -1) : `${source}\``;
  const outsideCode = source.replace(/`[^`]*`/g, "");
  let result = source;
  for (const mark of ["**", "~~"]) {
    if ((outsideCode.split(mark).length - 1) % 2 === 0) continue;
    result = result.trimEnd().endsWith(mark) ? result.trimEnd().slice(0, -mark.length) : `${result.trimEnd()}${mark}`;
  }
  return result;
}

/**
 * splitBlocks for a text that grows at its end, as a streaming answer does: only the
 * blocks that may still change are scanned again, and finished blocks keep their identity.
 * Any other change of the text starts over.
 */
export class BlockSplitter {
  private text = "";
  private finished: string[] = [];
  private finishedLength = 0;

  split(text: string): Blocks {
    if (!text.startsWith(this.text)) {
      this.finished = [];
      this.finishedLength = 0;
    }
    this.text = text;
    const { blocks, openFence } = splitBlocks(text.slice(this.finishedLength));
    // A block is final once the block after it has a complete first line: that line decided the split.
    const last = blocks.at(-1);
    const keep = last !== undefined && last.includes("\n") ? 1 : 2;
    const done = blocks.slice(0, Math.max(0, blocks.length - keep));
    if (done.length > 0) {
      this.finished = [...this.finished, ...done];
      for (const block of done) this.finishedLength += block.length;
    }
    return { blocks: [...this.finished, ...blocks.slice(done.length)], openFence };
  }
}
