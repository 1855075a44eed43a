// The built-in `chart` payload: a Vega-Lite spec the server checked (inline data only).
import { ChartColumn } from "lucide-react";
import { ChartView, isChartData } from "./components/ChartView";
import type { PayloadHandler } from "./payloadHandler";

export const CHART_PAYLOAD = "chart";

export const chartPayloadHandler: PayloadHandler = {
  render: (data) =>
    isChartData(data) ? <ChartView data={data} /> : <p className="pc-error">This chart cannot be shown.</p>,
  renderOptions: { headerTitle: "Chart", headerIcon: <ChartColumn size={18} />, panelWidth: "640px" },
};
