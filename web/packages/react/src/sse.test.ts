import { describe, expect, it } from "vitest";
import { readSse, SseParser, StreamIdleError, type SseFrame } from "./sse";

const wire =
  'id: 1\r\ndata: {"type":"status","message":"Thinking..."}\r\n\r\n' +
  ": ping - 2025-01-01 00:00:00\r\n\r\n" +
  'id: 2\r\ndata: {"type":"text_delta","text":"a"}\r\n\r\n' +
  "data: line one\ndata: line two\n\n" +
  "id: 4\rdata: cr only\r\r: more\n";

const expected: SseFrame[] = [
  { id: "1", data: '{"type":"status","message":"Thinking..."}' },
  { id: "2", data: '{"type":"text_delta","text":"a"}' },
  { id: null, data: "line one\nline two" },
  { id: "4", data: "cr only" },
];

describe("SseParser", () => {
  it("reads frames, skipping comments, with any line ending", () => {
    const parser = new SseParser();
    expect(parser.feed(wire)).toEqual(expected);
  });

  it("gives the same frames however the text is cut into chunks", () => {
    for (const size of [1, 2, 3, 7, 13]) {
      const parser = new SseParser();
      const frames: SseFrame[] = [];
      for (let i = 0; i < wire.length; i += size) frames.push(...parser.feed(wire.slice(i, i + size)));
      expect(frames).toEqual(expected);
    }
  });

  it("drops a frame the stream did not finish", () => {
    const parser = new SseParser();
    expect(parser.feed('id: 5\ndata: {"type":"canc')).toEqual([]);
    parser.end();
    expect(parser.feed("\n")).toEqual([]);
  });
});

function bodyOf(chunks: string[], { hang = false } = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!hang) controller.close();
    },
  });
}

describe("readSse", () => {
  it("reads frames from a byte stream, splitting multi-byte characters anywhere", async () => {
    const text = 'id: 1\ndata: {"text":"héllo — ✓"}\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const frames: SseFrame[] = [];
    for await (const frame of readSse(body)) frames.push(frame);
    expect(frames).toEqual([{ id: "1", data: '{"text":"héllo — ✓"}' }]);
  });

  it("gives up on a stream that goes silent", async () => {
    const frames: SseFrame[] = [];
    await expect(async () => {
      for await (const frame of readSse(bodyOf(["data: a\n\n"], { hang: true }), { idleMs: 30 })) frames.push(frame);
    }).rejects.toBeInstanceOf(StreamIdleError);
    expect(frames).toEqual([{ id: null, data: "a" }]);
  });
});
