// A Server-Sent Events reader for a fetch() body (EventSource cannot POST or send headers).
import { createParser, type EventSourceParser } from "eventsource-parser";

export interface SseFrame {
  /** The frame's `id:` field, or null when it had none. */
  id: string | null;
  data: string;
}

/**
 * Incremental SSE parser (eventsource-parser underneath): feed decoded text, get the frames it
 * completed. Comments (`: ping`) are skipped; any line ending counts, as the SSE spec says.
 */
export class SseParser {
  private frames: SseFrame[] = [];
  private readonly parser: EventSourceParser = createParser({
    onEvent: (message) => {
      this.frames.push({ id: message.id ?? null, data: message.data });
    },
  });

  feed(text: string): SseFrame[] {
    this.parser.feed(text);
    const frames = this.frames;
    this.frames = [];
    return frames;
  }

  /** The end of the stream: a frame not closed by a blank line is dropped, as the SSE spec says. */
  end(): void {
    this.parser.reset({ consume: false });
    this.frames = [];
  }
}

export class StreamIdleError extends Error {
  constructor(ms: number) {
    super(`no data for ${ms} ms`);
    this.name = "StreamIdleError";
  }
}

/**
 * Reads SSE frames from a response body. Throws StreamIdleError when nothing (not even
 * a `: ping` comment) arrives for `idleMs`, so a silently dead connection is noticed.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  { idleMs = 45_000, signal }: { idleMs?: number; signal?: AbortSignal } = {},
): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", onAbort);
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await readWithTimeout(reader, idleMs);
      signal?.throwIfAborted();
      if (done) {
        for (const frame of parser.feed(decoder.decode())) yield frame;
        parser.end();
        return;
      }
      for (const frame of parser.feed(decoder.decode(value, { stream: true }))) yield frame;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.cancel().catch(() => undefined);
  }
}

async function readWithTimeout(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new StreamIdleError(ms));
    }, ms);
  });
  try {
    return await Promise.race([reader.read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
