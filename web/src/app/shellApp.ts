// The apps the shell can show. An app lists the chat pages its server registers; the shell
// asks the server for its pages (GET /api/pages) and shows the first app of the list whose
// pages the server has, else the generic app for pages no app of the list claims (an app
// outside this repository). Adding an app is one entry in src/apps.ts: no file here changes.
import { useEffect, useState, type ComponentType } from "react";

export interface AppProps {
  token: string | null;
  onSignOut: () => void;
  /** The pages the server registered (sorted). */
  pages: readonly string[];
}

export interface ShellApp {
  /** For people and tests: which app the shell picked. */
  name: string;
  /** The server-side pages (`context.current_page`) the app's screens use. */
  pages: readonly string[];
  /** Shown for any pages when no app of the list claims them (the generic app). */
  anyPages?: boolean;
  Component: ComponentType<AppProps>;
}

export type ServerApp = { status: "checking" } | { status: "found"; app: ShellApp | null; pages: readonly string[] };

/**
 * The first of `apps` whose pages the server registered, else the first that takes any pages
 * when the server registered some (null: no pages, plain pagechat).
 */
export function pickApp(apps: readonly ShellApp[], serverPages: readonly string[]): ShellApp | null {
  const known = new Set(serverPages);
  const claimed = apps.find((app) => app.pages.some((page) => known.has(page)));
  if (claimed !== undefined) return claimed;
  return serverPages.length > 0 ? (apps.find((app) => app.anyPages === true) ?? null) : null;
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
        const pages = isPageList(body) ? body.pages : [];
        setFound({ status: "found", app: pickApp(apps, pages), pages });
      })
      .catch(() => {
        // Offline or aborted: the first app, whose pages say what failed.
        if (!controller.signal.aborted) setFound({ status: "found", app: apps[0] ?? null, pages: [] });
      });
    return () => {
      controller.abort();
    };
  }, [apps, token, onUnauthorized]);
  return found;
}
