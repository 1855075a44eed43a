import { MessageCircle } from "lucide-react";
import type { RefObject } from "react";
import { OPEN_SHORTCUT } from "../useOpenShortcut";

export interface LauncherProps {
  buttonRef: RefObject<HTMLButtonElement | null>;
  title: string;
  trayId: string;
  onOpen: () => void;
}

/** The button that opens the closed tray. */
export function Launcher({ buttonRef, title, trayId, onOpen }: LauncherProps) {
  return (
    <button
      ref={buttonRef}
      type="button"
      className="pc-launcher"
      aria-expanded={false}
      aria-controls={trayId}
      aria-keyshortcuts={OPEN_SHORTCUT.aria}
      title={`Open the assistant (${OPEN_SHORTCUT.label})`}
      onClick={onOpen}
    >
      <MessageCircle size={18} aria-hidden="true" focusable="false" /> {title}
    </button>
  );
}
