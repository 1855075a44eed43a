// A small history router: the address bar is the state; `navigate` changes it, `useLocation`
// follows it, `Link` is an <a> that navigates without reloading, `matchPath` reads parameters.
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

export interface Location {
  pathname: string;
  search: URLSearchParams;
  /** What `navigate(..., { state })` attached to this entry (survives reloads). */
  state: unknown;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

const listeners = new Set<() => void>();
let version = 0;

function notify(): void {
  version += 1;
  for (const listener of listeners) listener();
}

if (typeof window !== "undefined") window.addEventListener("popstate", notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function navigate(to: string, options: NavigateOptions = {}): void {
  const state = options.state ?? null;
  if (options.replace) window.history.replaceState(state, "", to);
  else {
    window.history.pushState(state, "", to);
    window.scrollTo({ top: 0 });
  }
  notify();
}

/** The current location; re-renders when it changes. */
export function useLocation(): Location {
  // The snapshot is a counter: history.state is an object and the URL a string, both read below.
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  const { pathname, search } = window.location;
  return { pathname, search: new URLSearchParams(search), state: window.history.state as unknown };
}

/** The named `:parameters` of `pattern` in `pathname` (decoded), or null when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split("/").filter(Boolean);
  const have = pathname.split("/").filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = have[i] ?? "";
    if (part.startsWith(":")) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) return null;
  }
  return params;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: string;
  state?: unknown;
}

/** An in-app link: a plain click navigates in place; a modified or middle click opens a tab. */
export function Link({ to, state, onClick, ...rest }: LinkProps) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(to, { state });
  };
  return <a href={to} onClick={click} {...rest} />;
}
