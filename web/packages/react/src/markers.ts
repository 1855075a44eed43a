// `[[tool:N]]` markers: where the N-th tool call of a turn is shown inline.

export type Segment = { kind: "text"; text: string } | { kind: "tool"; index: number; raw: string };

/** Exactly `[[tool:N]]`, N a decimal index into the turn's tool history. */
export const TOOL_MARKER = /\[\[tool:(\d+)\]\]/g;

/** Splits a message into text and tool-marker segments, in order. Empty text segments are dropped. */
export function splitToolMarkers(text: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(TOOL_MARKER)) {
    const start = match.index;
    if (start > last) segments.push({ kind: "text", text: text.slice(last, start) });
    segments.push({ kind: "tool", index: Number(match[1]), raw: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) segments.push({ kind: "text", text: text.slice(last) });
  return segments;
}
