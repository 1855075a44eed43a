// The colour theme the user picked: light, dark, or the system's. Kept in localStorage and
// written on <html data-theme>, which theme.css and the tray's chat.css read; every tab follows
// a change made in another (the storage event).
export type Theme = "light" | "dark" | "system";

export const THEMES: readonly Theme[] = ["system", "light", "dark"];

const KEY = "pagechat.theme";

function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark" || value === "system";
}

/** The stored theme, "system" when none (or storage is unavailable). */
export function storedTheme(): Theme {
  try {
    const value = window.localStorage.getItem(KEY);
    return isTheme(value) ? value : "system";
  } catch {
    return "system";
  }
}

/** Shows `theme`: sets (or, for "system", removes) `data-theme` on the root element. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** Stores `theme` and shows it. */
export function saveTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(KEY, theme);
  } catch {
    // Private modes may refuse storage: the theme still applies to this page.
  }
  applyTheme(theme);
}

/** Calls `changed` with the theme another tab stored; returns the unsubscribe. */
export function onThemeStored(changed: (theme: Theme) => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.key === KEY) changed(isTheme(event.newValue) ? event.newValue : "system");
  };
  window.addEventListener("storage", listener);
  return () => {
    window.removeEventListener("storage", listener);
  };
}
