// The app's session is the server's HttpOnly cookie: no token is kept where scripts can read it.
/** The chat tray's key (its `storageKey` + ".conversation"): the conversation it shows. */
const CONVERSATION_KEY = "pagechat.conversation";
/** Where earlier versions kept the bearer token: removed wherever it is still found. */
const OLD_TOKEN_KEY = "pagechat.token";

export function forgetOldToken(): void {
  try {
    localStorage.removeItem(OLD_TOKEN_KEY);
  } catch {
    // Storage blocked: nothing was kept.
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
