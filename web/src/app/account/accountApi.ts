// The account's and the admins' REST calls (the shell's session cookie signs them in; the
// CSRF header goes with every change): password, sign-out everywhere, API keys, usage.
import { HttpError, withCsrf, type UserPublic } from "@pagechat/react";

/** An API key as its owner sees it later: never the key itself. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  /** The key's first characters, to tell keys apart. */
  prefix: string;
  created_at: string;
}

/** A key just made: `key` is shown this once; the server keeps no copy in clear. */
export interface ApiKeyCreated extends ApiKeyInfo {
  key: string;
}

/** What the usage report can be grouped by (`GET /api/admin/usage?by=`). */
export const GROUPINGS = ["user", "model", "day", "purpose"] as const;
export type Grouping = (typeof GROUPINGS)[number];

/** One row of the usage report: the grouped columns (the others null) and the sums. */
export interface UsageRow {
  user: string | null;
  model: string | null;
  day: string | null;
  /** "answer" or "title" (a conversation-title call), when grouped by purpose. */
  purpose: string | null;
  answers: number;
  title_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export interface UsageReport {
  by: Grouping[];
  rows: UsageRow[];
}

/** The report's filters: groupings, and the first and last day (YYYY-MM-DD; "" for open). */
export interface UsageQuery {
  by: readonly Grouping[];
  since: string;
  until: string;
}

/** The report's address, as JSON or as the CSV sheet the server writes. */
export function usageUrl(query: UsageQuery, format: "json" | "csv"): string {
  const params = new URLSearchParams();
  for (const group of query.by) params.append("by", group);
  if (query.since) params.set("since", query.since);
  if (query.until) params.set("until", query.until);
  if (format === "csv") params.set("format", "csv");
  const qs = params.toString();
  return qs ? `/api/admin/usage?${qs}` : "/api/admin/usage";
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers = new Headers();
  if (body !== undefined) headers.set("Content-Type", "application/json");
  withCsrf(method, headers);
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const answer: unknown = await response.json().catch(() => null);
    const detail = typeof answer === "object" && answer !== null && "detail" in answer ? answer.detail : null;
    throw new HttpError(response.status, detail);
  }
  return (await response.json()) as T;
}

export const accountApi = {
  me: () => call<UserPublic>("GET", "/api/auth/me"),
  changePassword: (current: string, next: string) =>
    call<{ other_sessions_ended: number }>("POST", "/api/auth/password", { current_password: current, new_password: next }),
  signOutEverywhere: () => call<{ sessions_ended: number }>("POST", "/api/auth/logout-everywhere"),
  apiKeys: () => call<ApiKeyInfo[]>("GET", "/api/auth/api-keys"),
  createApiKey: (name: string) => call<ApiKeyCreated>("POST", "/api/auth/api-keys", { name }),
  revokeApiKey: (id: string) => call<{ revoked: boolean }>("DELETE", `/api/auth/api-keys/${encodeURIComponent(id)}`),
  usage: (query: UsageQuery) => call<UsageReport>("GET", usageUrl(query, "json")),
};
