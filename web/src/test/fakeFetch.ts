// The network as a component test sees it: `fetch` answered by route ("GET /api/x"), each
// request kept (method, path with its query, JSON body) for the test to read.
import { vi } from "vitest";

export interface SentRequest {
  method: string;
  url: string;
  body: unknown;
}

export type Answer = { status?: number; body: unknown } | ((request: SentRequest) => { status?: number; body: unknown });

/** Stubs the global fetch with `routes` (keyed by method and path, without the query); an
 * unknown route answers 404. Returns the requests sent, in order. */
export function fakeFetch(routes: Record<string, Answer>): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((input: string, init: RequestInit = {}) => {
      const method = (init.method ?? "GET").toUpperCase();
      const body: unknown = typeof init.body === "string" ? JSON.parse(init.body) : null;
      const request = { method, url: input, body };
      sent.push(request);
      const route = routes[`${method} ${input.split("?")[0] ?? ""}`];
      const answer = typeof route === "function" ? route(request) : (route ?? { status: 404, body: { detail: "Not Found" } });
      return Promise.resolve(new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { "Content-Type": "application/json" } }));
    }),
  );
  return sent;
}
