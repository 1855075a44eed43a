import { useEffect, useRef, useState, type RefObject } from "react";
import { fitSpec } from "../chartFit";

/** A `chart` payload's data as the server checked it: inline Vega-Lite only. */
export interface ChartData {
  title: string;
  spec: Record<string, unknown>;
}

export function isChartData(data: unknown): data is ChartData {
  if (typeof data !== "object" || data === null) return false;
  const { title, spec } = data as Record<string, unknown>;
  return typeof title === "string" && typeof spec === "object" && spec !== null && !Array.isArray(spec);
}

type Status = "loading" | "ready" | "error";

/** Widths are followed in steps, so dragging the tray's edge redraws a chart now and then. */
const STEP = 16;

const DARK = "(prefers-color-scheme: dark)";

/** Whether the tray is dark: the page's choice on <html data-theme="light|dark"> (a theme
 * switch), else the system's (chat.css does the same), kept current. */
function isDark(): boolean {
  const theme = document.documentElement.dataset.theme;
  if (theme === "dark" || theme === "light") return theme === "dark";
  return typeof window.matchMedia === "function" && window.matchMedia(DARK).matches;
}

function usePrefersDark(): boolean {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const changed = () => {
      setDark(isDark());
    };
    const query = typeof window.matchMedia === "function" ? window.matchMedia(DARK) : null;
    query?.addEventListener("change", changed);
    const observer = typeof MutationObserver === "undefined" ? null : new MutationObserver(changed);
    observer?.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => {
      query?.removeEventListener("change", changed);
      observer?.disconnect();
    };
  }, []);
  return dark;
}

/** The width `ref`'s element offers its content, in steps of STEP: null until measured,
 * 0 where nothing can measure it (then the spec is drawn as it is). */
function useAvailableWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(typeof ResizeObserver === "undefined" ? 0 : null);
  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof ResizeObserver === "undefined") return undefined;
    const measure = () => {
      setWidth(Math.floor(element.clientWidth / STEP) * STEP);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [ref]);
  return width;
}

/**
 * Renders a Vega-Lite spec as SVG with vega-embed. Expressions are run by Vega's
 * interpreter (`ast: true`), never compiled with `new Function`, so the page's CSP needs
 * no 'unsafe-eval'; the loader refuses every URL (the server already allows inline data only).
 * The spec is fitted to the width of the figure (`fitSpec`) and drawn again when it changes,
 * or when the system switches between light and dark.
 */
export function ChartView({ data }: { data: ChartData }) {
  const figure = useRef<HTMLElement>(null);
  const target = useRef<HTMLDivElement>(null);
  const width = useAvailableWidth(figure);
  const dark = usePrefersDark();
  const [status, setStatus] = useState<Status>("loading");
  const [message, setMessage] = useState("");

  useEffect(() => {
    const element = target.current;
    if (element === null || width === null) return undefined;
    // Each drawing has its own host: one still loading when the width changes may finish
    // after the next has begun, and must not add its chart beside it.
    const host = document.createElement("div");
    element.replaceChildren(host);
    let finalize: (() => void) | null = null;
    const run = { cancelled: false };
    void (async () => {
      try {
        const [{ default: embed }, { expressionInterpreter }, vega] = await Promise.all([
          import("vega-embed"),
          import("vega-interpreter"),
          import("vega"),
        ]);
        const loader = vega.loader();
        loader.load = () => Promise.reject(new Error("charts take inline data only"));
        const result = await embed(host, fitSpec(data.spec, width), {
          actions: false,
          renderer: "svg",
          ast: true,
          expr: expressionInterpreter,
          loader,
          // Vega's own dark theme when the tray is dark, on the tray's background, not white.
          ...(dark ? { theme: "dark" as const } : {}),
          config: { background: "transparent" },
        });
        if (run.cancelled) {
          result.finalize();
          return;
        }
        finalize = () => {
          result.finalize();
        };
        setStatus("ready");
      } catch (error: unknown) {
        if (run.cancelled) return;
        setMessage(error instanceof Error ? error.message : "The chart could not be drawn.");
        setStatus("error");
      }
    })();
    return () => {
      run.cancelled = true;
      finalize?.();
      host.remove();
    };
  }, [data.spec, width, dark]);

  return (
    <figure ref={figure} className="pc-chart" data-status={status}>
      {data.title !== "" && <figcaption className="pc-chart-title">{data.title}</figcaption>}
      <div ref={target} className="pc-chart-canvas" role="img" aria-label={data.title || "Chart"} />
      {status === "loading" && <p className="pc-muted">Drawing the chart…</p>}
      {status === "error" && (
        <p className="pc-error" role="alert">
          {message}
        </p>
      )}
    </figure>
  );
}
