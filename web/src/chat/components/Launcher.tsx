import type { RefObject } from "react";

export interface LauncherProps {
  buttonRef: RefObject<HTMLButtonElement | null>;
  title: string;
  trayId: string;
  onOpen: () => void;
}

/** The button that opens the closed tray. */
export function Launcher({ buttonRef, title, trayId, onOpen }: LauncherProps) {
  return (
    <button ref={buttonRef} type="button" className="pc-launcher" aria-expanded={false} aria-controls={trayId} onClick={onOpen}>
      💬 {title}
    </button>
  );
}
