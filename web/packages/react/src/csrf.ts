// The browser's session is an HttpOnly cookie the page cannot read; what the page can read
// is the CSRF token the server set beside it, which requests that change something repeat.
const CSRF_COOKIE = "pagechat_csrf";
export const CSRF_HEADER = "X-CSRF-Token";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** The CSRF token of this browser's session, if it has one. */
export function csrfToken(cookies: string = typeof document === "undefined" ? "" : document.cookie): string | null {
  for (const part of cookies.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === CSRF_COOKIE) return decodeURIComponent(value.join("="));
  }
  return null;
}

/** Adds the CSRF header to a request made with the session cookie that changes something. */
export function withCsrf(method: string | undefined, headers: Headers): void {
  if (SAFE.has((method ?? "GET").toUpperCase()) || headers.has("Authorization")) return;
  const token = csrfToken();
  if (token !== null) headers.set(CSRF_HEADER, token);
}
