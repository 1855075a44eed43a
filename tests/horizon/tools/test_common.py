from __future__ import annotations

import pytest

from horizon.tools import HORIZON_TOOLS
from pagechat.tools import ToolConfig, ToolContext, ToolResult

_SCOPED = [
    "chart_report",
    "chart_stream",
    "get_report_summary",
    "get_report_articles",
    "search_articles_in_reports",
    "get_article_details",
    "delete_report",
    "list_research_streams",
    "get_stream_details",
]
_INPUT = {"report_id": 1, "stream_id": 1, "query": "x", "pmid": "1"}


def _tool(name: str) -> ToolConfig:
    return next(t for t in HORIZON_TOOLS if t.name == name)


@pytest.mark.parametrize("name", _SCOPED)
async def test_a_tool_run_without_a_database_says_so(name: str) -> None:
    result = await _tool(name).executor(dict(_INPUT), ToolContext(user_id="u1"))
    assert result == ToolResult(
        "Horizon's tools need the app's database, and this run has none.", is_error=True
    )
