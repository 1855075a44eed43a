// Opening the tray focuses the message box; closing it gives focus back to the launcher.
import { useEffect, useRef, type RefObject } from "react";

export function useOpenFocus(
  open: boolean,
  inputRef: RefObject<HTMLTextAreaElement | null>,
  launcherRef: RefObject<HTMLButtonElement | null>,
): void {
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open) inputRef.current?.focus();
    else if (wasOpen.current) launcherRef.current?.focus();
    wasOpen.current = open;
  }, [open, inputRef, launcherRef]);
}
