import type { KeyboardEvent, PointerEvent } from "react";

export interface ResizeHandleProps {
  width: number;
  min: number;
  max: number;
  onResize: (width: number) => void;
}

const STEP = 24;

/** The docked tray's left edge, with a visible grip: drag it, or focus it and use the arrow keys, to change the width. */
export function ResizeHandle({ width, min, max, onResize }: ResizeHandleProps) {
  const clamp = (value: number) => Math.round(Math.min(max, Math.max(min, value)));
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) => {
      onResize(clamp(window.innerWidth - e.clientX));
    };
    const up = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
      target.removeEventListener("pointercancel", up);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
    target.addEventListener("pointercancel", up);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta = event.key === "ArrowLeft" ? STEP : event.key === "ArrowRight" ? -STEP : 0;
    if (delta === 0) return;
    event.preventDefault();
    onResize(clamp(width + delta));
  };
  return (
    <div
      className="pc-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize chat"
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    >
      <span className="pc-resize-grip" aria-hidden="true" />
    </div>
  );
}
