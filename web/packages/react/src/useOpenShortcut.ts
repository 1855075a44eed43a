// The documented shortcut that opens the tray from anywhere on the page: Ctrl+/ (⌘/ on a Mac).
// Pressed while the tray is open, it puts the focus in the message box.
import { useEffect, type RefObject } from "react";

/** For `aria-keyshortcuts` and tooltips. */
export const OPEN_SHORTCUT = { aria: "Control+/ Meta+/", label: "Ctrl+/" } as const;

export function isOpenShortcut(event: KeyboardEvent): boolean {
  return event.key === "/" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

export function useOpenShortcut(open: boolean, setOpen: (open: boolean) => void, inputRef: RefObject<HTMLTextAreaElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isOpenShortcut(event)) return;
      event.preventDefault();
      if (open) inputRef.current?.focus();
      else setOpen(true);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
    };
  }, [open, setOpen, inputRef]);
}
