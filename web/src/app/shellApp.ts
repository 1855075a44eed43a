// The apps the shell can show. An app lists the chat pages its server registers; the shell
// asks the server for its pages (GET /api/pages) and shows the first app of the list whose
// pages the server has. Adding an app is one entry in src/apps.ts: no file here changes.
import { useEffect, useState, type ComponentType } from "react";

export interface AppProps {
  token: string | null;
  onSignOut: () => void;
}

export interface ShellApp {
  /** For people and tests: which app the shell picked. */
  name: string;
  /** The server-side pages (`context.current_page`) the app's screens use. */
  pages: readonly string[];
  Component: ComponentType<AppProps>;
}

export type ServerApp = { status: "checking" } | { status: "found"; app: ShellApp | null };

/** The first of `apps` whose pages the server registered (null: none of them, plain pagechat). */
export function pickApp(apps: readonly ShellApp[], serverPages: readonly string[]): ShellApp | null {
  const known = new Set(serverPages);
  return apps.find((app) => app.pages.some((page) => known.has(page))) ?? null;
}

function isPageList(body: unknown): body is { pages: string[] } {
  return (
    typeof body === "object" &&
    body !== null &&
    "pages" in body &&
    Array.isArray(body.pages) &&
    body.pages.every((p) => typeof p === "string")
  );
}

export function useServerApp(apps: readonly ShellApp[], token: string | null, onUnauthorized: () => void): ServerApp {
  const [found, setFound] = useState<ServerApp>({ status: "checking" });
  useEffect(() => {
    const controller = new AbortController();
    const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
    fetch("/api/pages", { headers, credentials: "same-origin", signal: controller.signal })
      .then(async (response) => {
        if (response.status === 401) {
          onUnauthorized();
          return;
        }
        const body: unknown = response.ok ? await response.json() : null;
        setFound({ status: "found", app: pickApp(apps, isPageList(body) ? body.pages : []) });
      })
      .catch(() => {
        // Offline or aborted: the first app, whose pages say what failed.
        if (!controller.signal.aborted) setFound({ status: "found", app: apps[0] ?? null });
      });
    return () => {
      controller.abort();
    };
  }, [apps, token, onUnauthorized]);
  return found;
}
