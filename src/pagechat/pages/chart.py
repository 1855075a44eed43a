"""`CHART_PAYLOAD`: lets the model answer with a chart of its own (`CHART: {title, spec}`).

A page adds it to its payloads; the data is checked against `CHART_DATA_SCHEMA` (inline
Vega-Lite only, no URL anywhere) like any payload's, so a refused chart stays text with a
warning. Tools need nothing of this: their chart payloads are checked by `execute_tool`.
"""

from __future__ import annotations

from ..tools.chart import CHART, CHART_DATA_SCHEMA
from .config import PayloadConfig

__all__ = ["CHART_PAYLOAD"]

CHART_PAYLOAD = PayloadConfig(
    type=CHART,
    parse_marker="CHART:",
    llm_instructions=(
        "To show numbers as a chart, write on its own line CHART: followed by JSON "
        '{"title": "...", "spec": <a Vega-Lite spec>}. Put the data inline in '
        '"data": {"values": [...]}; never use "url" or links: they are refused.'
    ),
    schema=CHART_DATA_SCHEMA,
)
