// A Vega-Lite spec fitted to the width it is shown in (a tray at 360 px, a side panel at
// 640 px): a single view fills the width, axes included; views side by side that do not fit
// are stacked, each no wider than the width. Anything else is left as it is (the SVG is
// still scaled down by CSS, see .pc-chart-canvas svg).

type Spec = Record<string, unknown>;

/** Room a view's y axis, its labels and its title take beside the plot. */
export const AXIS_ROOM = 64;
/** Vega-Lite's default space between concatenated views. */
const SPACING = 20;
const MIN_PLOT = 40;

function isView(spec: Spec): boolean {
  return "mark" in spec || "layer" in spec;
}

function plotWidth(view: unknown): number | null {
  if (typeof view !== "object" || view === null) return null;
  const { width } = view as Spec;
  return typeof width === "number" ? width : null;
}

function narrowed(view: unknown, available: number): unknown {
  const width = plotWidth(view);
  if (width === null || width + AXIS_ROOM <= available) return view;
  return { ...(view as Spec), width: Math.max(MIN_PLOT, available - AXIS_ROOM) };
}

/** `spec` for a container `available` pixels wide (0 or less: unknown, unchanged). */
export function fitSpec(spec: Spec, available: number): Spec {
  if (available <= 0) return spec;
  if (isView(spec)) {
    const own = plotWidth(spec);
    const width = own === null ? available : Math.min(available, own + AXIS_ROOM);
    return { ...spec, width, autosize: { type: "fit-x", contains: "padding" } };
  }
  const { hconcat, vconcat, ...rest } = spec;
  if (Array.isArray(hconcat)) {
    const natural = hconcat.reduce<number>((sum, view) => sum + (plotWidth(view) ?? 200) + AXIS_ROOM, 0);
    if (natural + SPACING * (hconcat.length - 1) <= available) return spec;
    return { ...rest, vconcat: hconcat.map((view) => narrowed(view, available)) };
  }
  if (Array.isArray(vconcat)) return { ...rest, vconcat: vconcat.map((view) => narrowed(view, available)) };
  return spec;
}
