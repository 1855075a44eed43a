// Horizon's REST client: every call is typed by the generated `HorizonRoutes`, so a route or
// a schema that changes on the server breaks the build here, not the page at run time.
import { HttpError, withCsrf } from "@pagechat/react";
import type { HorizonRoutes } from "./generated/api";

type RouteKey = keyof HorizonRoutes;
type Part<K extends RouteKey, P extends string> = HorizonRoutes[K] extends Record<P, infer T> ? T : undefined;

/** What a route needs besides its name: path parameters, query, body (only those it has). */
export type RouteInput<K extends RouteKey> = {
  [P in "path" | "query" | "body" as HorizonRoutes[K] extends Record<P, unknown> ? P : never]: Part<K, P>;
};

// Server actions are not run from here: a card runs them through its conversation
// (PayloadConversation.runAction), so the chat records what the user applied.
export interface HorizonApi {
  call<K extends RouteKey>(route: K, input: RouteInput<K>): Promise<HorizonRoutes[K]["response"]>;
}

/** Fills `{name}` segments of a route's path from its path parameters. */
type QueryValue = string | number | boolean | null | undefined;

export function routeUrl(path: string, params: Record<string, string | number> = {}, query: Record<string, QueryValue> = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

export function createHorizonApi(getToken: () => string | null, onUnauthorized: () => void): HorizonApi {
  return {
    async call(route, input) {
      const [method = "GET", path = ""] = route.split(" ");
      const parts = input as { path?: Record<string, string | number>; query?: Record<string, QueryValue>; body?: unknown };
      const headers = new Headers();
      const token = getToken();
      if (token) headers.set("Authorization", `Bearer ${token}`);
      if (parts.body !== undefined) headers.set("Content-Type", "application/json");
      withCsrf(method, headers);
      const response = await fetch(routeUrl(path, parts.path, parts.query), {
        method,
        headers,
        credentials: "same-origin",
        body: parts.body === undefined ? undefined : JSON.stringify(parts.body),
      });
      if (response.status === 401) onUnauthorized();
      if (!response.ok) {
        const body: unknown = await response.json().catch(() => null);
        const detail = typeof body === "object" && body !== null && "detail" in body ? body.detail : null;
        throw new HttpError(response.status, detail);
      }
      if (response.status === 204) return null;
      return (await response.json()) as HorizonRoutes[typeof route]["response"];
    },
  };
}
