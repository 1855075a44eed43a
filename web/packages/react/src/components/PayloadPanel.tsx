import { X } from "lucide-react";
import type { KeyboardEvent } from "react";
import { IconButton } from "./IconButton";
import type { PayloadCallbacks, PayloadHandler } from "../payloadRegistry";
import type { CustomPayload } from "../types";
import type { TrayGeometry } from "../useTrayLayout";

export interface PayloadPanelProps {
  payload: CustomPayload;
  handler: PayloadHandler;
  /** Where the tray is: the panel sits beside a docked tray when there is room, else over it. */
  tray: TrayGeometry;
  callbacks: PayloadCallbacks;
  onClose: () => void;
}

/** The side panel next to the tray, showing a payload through its handler. */
const _DEFAULT_WIDTH = 420;
/** Beside a docked tray only if the panel gets at least this much room. */
const _MIN_BESIDE = 360;

/** The panel's place in the window: always wholly inside it, from 360 px up. */
export function panelPlacement(tray: TrayGeometry, panelWidth: string | undefined): { right: number; width: number } {
  const parsed = panelWidth === undefined ? Number.NaN : Number.parseFloat(panelWidth);
  const wanted = Number.isFinite(parsed) && parsed > 0 ? parsed : _DEFAULT_WIDTH;
  const room = tray.viewportWidth - tray.width;
  if (tray.layout === "docked" && room >= _MIN_BESIDE) return { right: tray.width, width: Math.min(wanted, room) };
  // Over the tray (a sheet, or a docked tray that leaves too little room): at least as wide as it.
  return { right: 0, width: Math.min(tray.viewportWidth, Math.max(wanted, tray.width)) };
}

export function PayloadPanel({ payload, handler, tray, callbacks, onClose }: PayloadPanelProps) {
  const options = handler.renderOptions ?? {};
  const { right, width } = panelPlacement(tray, options.panelWidth);
  const title = options.headerTitle ?? payload.type;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
    }
  };
  return (
    <aside
      className="pc-panel"
      aria-label={title}
      tabIndex={-1}
      data-payload-type={payload.type}
      data-layout={right === 0 ? "over" : "beside"}
      style={{ right, width }}
      onKeyDown={onKeyDown}
    >
      <header className="pc-panel-header">
        {options.headerIcon && (
          <span className="pc-panel-icon" aria-hidden="true">
            {options.headerIcon}
          </span>
        )}
        <h2 className="pc-panel-title">{title}</h2>
        <IconButton icon={X} label="Close panel" onClick={onClose} />
      </header>
      <div className="pc-panel-body">{handler.render(payload.data, callbacks)}</div>
    </aside>
  );
}
