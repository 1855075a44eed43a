"""The built-in chart payload: only inline, bounded Vega-Lite specs get through."""

from __future__ import annotations

from typing import Any

import altair as alt
import pytest

from pagechat.tools import (
    CHART,
    ChartSpecError,
    ToolConfig,
    ToolContext,
    ToolResult,
    chart_payload,
    execute_tool,
    validate_chart_spec,
)
from pagechat.tools.chart import MAX_SPEC_BYTES

BARS: dict[str, Any] = {
    "mark": "bar",
    "data": {"values": [{"year": 2024, "n": 3}, {"year": 2025, "n": 5}]},
    "encoding": {
        "x": {"field": "year", "type": "ordinal"},
        "y": {"field": "n", "type": "quantitative"},
    },
}


def test_an_altair_chart_with_inline_data_is_accepted() -> None:
    spec = (
        alt.Chart(alt.InlineData(values=[{"c": "Trials", "n": 4}]))
        .mark_bar()
        .encode(x="c:N", y="n:Q")
    )

    payload = chart_payload(spec.to_dict(), title="Articles per category")

    assert payload["type"] == CHART
    assert payload["data"]["title"] == "Articles per category"
    assert payload["data"]["spec"]["mark"]["type"] == "bar"


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ({**BARS, "data": {"url": "https://evil.example/data.csv"}}, "data.url"),
        ({"layer": [{**BARS, "data": {"url": "data.json"}}]}, "layer[0].data.url"),
        ({**BARS, "encoding": {"href": {"field": "link"}}}, "encoding.href"),
        ({"mark": "image", "encoding": {"URL": {"value": "x"}}}, "encoding.URL"),
        ({**BARS, "data": {"values": [{"n": "https://evil.example/x.png"}]}}, "a URL"),
        ({**BARS, "title": "//evil.example/x"}, "a URL"),
        ({**BARS, "$schema": "https://evil.example/schema.json"}, "$schema"),
        ({"data": {"values": []}}, "not a Vega-Lite spec"),
        ([BARS], "a JSON object"),
        ({**BARS, "data": {"values": [{"n": float("nan")}]}}, "plain JSON"),
    ],
)
def test_a_spec_that_could_fetch_or_is_not_vega_lite_is_refused(spec: Any, why: str) -> None:
    with pytest.raises(ChartSpecError, match=why.replace("[", r"\[").replace("$", r"\$")):
        validate_chart_spec(spec)


def test_a_spec_is_bounded_in_size_and_depth() -> None:
    big = {**BARS, "data": {"values": [{"n": i} for i in range(MAX_SPEC_BYTES // 8)]}}
    with pytest.raises(ChartSpecError, match="bytes"):
        validate_chart_spec(big)
    deep: dict[str, Any] = {"x": 1}
    for _ in range(40):
        deep = {"a": deep}
    with pytest.raises(ChartSpecError, match="deeper"):
        validate_chart_spec({**BARS, "usermeta": deep})


async def _run(payload: dict[str, Any]) -> ToolResult:
    tool = ToolConfig(
        name="plot",
        description="plot",
        input_schema={"type": "object"},
        executor=lambda p, c: ToolResult("done", payload),
    )
    results = [r async for r in execute_tool(tool, {}, ToolContext()) if isinstance(r, ToolResult)]
    return results[-1]


async def test_a_tool_whose_chart_fetches_data_gets_an_error_result() -> None:
    payload = {"type": CHART, "data": {"title": "t", "spec": {**BARS, "data": {"url": "x.csv"}}}}

    result = await _run(payload)

    assert result.is_error and result.payload is None
    assert "made a chart that cannot be shown" in result.text and "data.url" in result.text


async def test_a_tools_valid_chart_passes_unchanged() -> None:
    payload = chart_payload(BARS, title="ok")

    result = await _run(payload)

    assert not result.is_error and result.payload == payload
