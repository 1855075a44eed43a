// The app's session: the bearer token lives in localStorage.
const TOKEN_KEY = "pagechat.token";
/** The chat tray's key (its `storageKey` + ".conversation"): the conversation it shows. */
const CONVERSATION_KEY = "pagechat.conversation";

export function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function writeToken(token: string | null): void {
  try {
    if (token === null) localStorage.removeItem(TOKEN_KEY);
    else localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage blocked: the session lasts for this page only.
  }
}

/** On sign-out: the next user of this browser starts without the last one's conversation. */
export function forgetChat(): void {
  try {
    localStorage.removeItem(CONVERSATION_KEY);
  } catch {
    // Storage blocked: nothing was kept.
  }
}
