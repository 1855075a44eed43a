// Where the tray sits: docked beside the page on a wide window (the page makes room for it),
// an overlay sheet on a narrow one. The docked width is published to the page as the CSS
// variable `--pc-tray-inset` on <html> (0px otherwise), so the app's frame can reflow
// (`margin-right: var(--pc-tray-inset, 0px)`) while the tray is resized.
import { useEffect, useSyncExternalStore } from "react";

export type TrayLayout = "docked" | "sheet";

/** From this window width up the tray docks; below it, it is a sheet over the page. */
export const DOCK_MIN_WIDTH = 1024;
export const MIN_TRAY_WIDTH = 320;
/** The least the page keeps beside a docked tray. */
const _MIN_PAGE_WIDTH = 480;
const _MAX_TRAY_WIDTH = 960;

function _subscribe(onChange: () => void): () => void {
  window.addEventListener("resize", onChange);
  return () => {
    window.removeEventListener("resize", onChange);
  };
}

const _width = () => window.innerWidth;
const _serverWidth = () => 1280;

export interface TrayGeometry {
  layout: TrayLayout;
  viewportWidth: number;
  /** The widest the tray may be made in this window. */
  maxWidth: number;
  /** The tray's width: the one asked for, within bounds (a sheet is the window's width, up to 480 px). */
  width: number;
}

export function useTrayLayout(open: boolean, requestedWidth: number): TrayGeometry {
  const viewportWidth = useSyncExternalStore(_subscribe, _width, _serverWidth);
  const layout: TrayLayout = viewportWidth >= DOCK_MIN_WIDTH ? "docked" : "sheet";
  const maxWidth = Math.max(MIN_TRAY_WIDTH, Math.min(_MAX_TRAY_WIDTH, viewportWidth - _MIN_PAGE_WIDTH));
  const width =
    layout === "docked" ? Math.min(maxWidth, Math.max(MIN_TRAY_WIDTH, requestedWidth)) : Math.min(viewportWidth, 480);
  const inset = open && layout === "docked" ? width : 0;
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty("--pc-tray-inset", `${String(inset)}px`);
    return () => {
      root.style.removeProperty("--pc-tray-inset");
    };
  }, [inset]);
  return { layout, viewportWidth, maxWidth, width };
}
