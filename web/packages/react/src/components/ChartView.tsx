import { useEffect, useRef, useState } from "react";

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

/**
 * Renders a Vega-Lite spec as SVG with vega-embed. Expressions are run by Vega's
 * interpreter (`ast: true`), never compiled with `new Function`, so the page's CSP needs
 * no 'unsafe-eval'; the loader refuses every URL (the server already allows inline data only).
 */
export function ChartView({ data }: { data: ChartData }) {
  const target = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>("loading");
  const [message, setMessage] = useState("");

  useEffect(() => {
    const element = target.current;
    if (element === null) return undefined;
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
        const result = await embed(element, data.spec, {
          actions: false,
          renderer: "svg",
          ast: true,
          expr: expressionInterpreter,
          loader,
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
    };
  }, [data.spec]);

  return (
    <figure className="pc-chart" data-status={status}>
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
