// A Server-Sent Events reader for a fetch() body (EventSource cannot POST or send headers).

export interface SseFrame {
  /** The frame's `id:` field, or null when it had none. */
  id: string | null;
  data: string;
}

/** Incremental SSE parser: feed decoded text, get complete frames. Comment lines are skipped. */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private id: string | null = null;
  private hasData = false;

  feed(text: string): SseFrame[] {
    this.buffer += text;
    const frames: SseFrame[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf("\n", start);
      const cr = this.buffer.indexOf("\r", start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A lone CR ends a line too; CRLF counts once. A CR at the very end may be half of a CRLF.
        if (cr === this.buffer.length - 1) break;
        end = cr;
        next = this.buffer[cr + 1] === "\n" ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        break;
      }
      const frame = this.line(this.buffer.slice(start, end));
      if (frame) frames.push(frame);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return frames;
  }

  /** The end of the stream: a frame not closed by a blank line is dropped, as the SSE spec says. */
  end(): void {
    this.buffer = "";
    this.reset();
  }

  private line(line: string): SseFrame | null {
    if (line === "") {
      if (!this.hasData) {
        this.id = null;
        return null;
      }
      const frame = { id: this.id, data: this.data.join("\n") };
      this.reset();
      return frame;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.hasData = true;
    } else if (field === "id") {
      if (!value.includes("\0")) this.id = value;
    }
    return null;
  }

  private reset(): void {
    this.data = [];
    this.id = null;
    this.hasData = false;
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
