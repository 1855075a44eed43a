import type { KeyboardEvent } from "react";
import type { PayloadCallbacks, PayloadHandler } from "../payloadRegistry";
import type { CustomPayload } from "../types";

export interface PayloadPanelProps {
  payload: CustomPayload;
  handler: PayloadHandler;
  /** Distance from the right edge of the window: the tray's width. */
  right: number;
  callbacks: PayloadCallbacks;
  onClose: () => void;
}

/** The side panel next to the tray, showing a payload through its handler. */
export function PayloadPanel({ payload, handler, right, callbacks, onClose }: PayloadPanelProps) {
  const options = handler.renderOptions ?? {};
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
      style={{ right, width: options.panelWidth ?? "420px" }}
      onKeyDown={onKeyDown}
    >
      <header className="pc-panel-header">
        {options.headerIcon && (
          <span className="pc-panel-icon" aria-hidden="true">
            {options.headerIcon}
          </span>
        )}
        <h2 className="pc-panel-title">{title}</h2>
        <button type="button" className="pc-icon-button" aria-label="Close panel" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="pc-panel-body">{handler.render(payload.data, callbacks)}</div>
    </aside>
  );
}
