// A scripted fetch for tests: SSE responses whose frames the test pushes, drops or ends.
import type { StreamEvent } from "../src/types";

type Item = { kind: "data"; bytes: Uint8Array } | { kind: "end" } | { kind: "drop" };

/** An SSE response the test writes to. A drop or an end comes after every frame sent before it. */
export class SseResponse {
  private readonly items: Item[] = [];
  private wake: (() => void) | null = null;
  private readonly encoder = new TextEncoder();
  readonly response: Response;

  constructor(headers: Record<string, string> = {}, status = 200) {
    const body = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          while (this.items.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
          const item = this.items.shift();
          if (item?.kind === "data") controller.enqueue(item.bytes);
          else if (item?.kind === "end") controller.close();
          else controller.error(new TypeError("network error"));
        },
      },
      { highWaterMark: 0 },
    );
    this.response = new Response(body, { status, headers: { "Content-Type": "text/event-stream", ...headers } });
  }

  private push(item: Item): void {
    this.items.push(item);
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  send(id: number, event: StreamEvent): this {
    this.push({ kind: "data", bytes: this.encoder.encode(`id: ${String(id)}\r\ndata: ${JSON.stringify(event)}\r\n\r\n`) });
    return this;
  }

  ping(): this {
    this.push({ kind: "data", bytes: this.encoder.encode(": ping\r\n\r\n") });
    return this;
  }

  end(): void {
    this.push({ kind: "end" });
  }

  /** The connection breaks mid-stream. */
  drop(): void {
    this.push({ kind: "drop" });
  }
}

export interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** A fetch whose answers the test queues per route; every call is recorded. */
export class FakeFetch {
  readonly calls: Call[] = [];
  private readonly routes = new Map<string, (() => Response | Promise<Response>)[]>();
  private readonly fixed = new Map<string, () => Response | Promise<Response>>();

  /** Answers every call of the route (after any queued answers are used up). */
  always(method: string, path: string, answer: () => Response | Promise<Response>): this {
    this.fixed.set(`${method} ${path}`, answer);
    return this;
  }

  on(method: string, path: string, answer: () => Response | Promise<Response>): this {
    const key = `${method} ${path}`;
    const list = this.routes.get(key) ?? [];
    list.push(answer);
    this.routes.set(key, list);
    return this;
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString();
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    // A JSON body is parsed; any other (a multipart form) is kept as it was sent.
    const body: unknown = typeof init?.body === "string" ? JSON.parse(init.body) : (init?.body ?? null);
    this.calls.push({ url, method, headers, body });
    const path = url.replace(/\?.*$/, "");
    const answers = this.routes.get(`${method} ${path}`);
    const answer = answers?.shift() ?? this.fixed.get(`${method} ${path}`);
    if (answer === undefined) throw new TypeError(`no answer queued for ${method} ${path}`);
    init?.signal?.throwIfAborted();
    return answer();
  };
}

export const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });
