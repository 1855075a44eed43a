"""Horizon's tools: the ten of `horizon.tool_specs`, over the database and PubMed.

They are global (offered on every page); the app registers them once at start
with `register_horizon_tools()`. Each acts for `ctx.user_id` through
`ctx.session`; an unknown id, or another user's, is an error result the model
reads, never an exception.
"""

from __future__ import annotations

from pagechat.tools import ToolConfig, register_tool

from .charts import CHART_REPORT_TOOL, CHART_STREAM_TOOL
from .pubmed import GET_PUBMED_ARTICLE_TOOL, SEARCH_PUBMED_TOOL
from .reports import (
    DELETE_REPORT_TOOL,
    GET_ARTICLE_DETAILS_TOOL,
    GET_REPORT_ARTICLES_TOOL,
    GET_REPORT_SUMMARY_TOOL,
    SEARCH_ARTICLES_IN_REPORTS_TOOL,
)
from .streams import GET_STREAM_DETAILS_TOOL, LIST_RESEARCH_STREAMS_TOOL

__all__ = [
    "CHART_REPORT_TOOL",
    "CHART_STREAM_TOOL",
    "DELETE_REPORT_TOOL",
    "GET_ARTICLE_DETAILS_TOOL",
    "GET_PUBMED_ARTICLE_TOOL",
    "GET_REPORT_ARTICLES_TOOL",
    "GET_REPORT_SUMMARY_TOOL",
    "GET_STREAM_DETAILS_TOOL",
    "HORIZON_TOOLS",
    "LIST_RESEARCH_STREAMS_TOOL",
    "SEARCH_ARTICLES_IN_REPORTS_TOOL",
    "SEARCH_PUBMED_TOOL",
    "register_horizon_tools",
]

HORIZON_TOOLS: tuple[ToolConfig, ...] = (
    SEARCH_PUBMED_TOOL,
    GET_PUBMED_ARTICLE_TOOL,
    LIST_RESEARCH_STREAMS_TOOL,
    GET_STREAM_DETAILS_TOOL,
    GET_REPORT_SUMMARY_TOOL,
    GET_REPORT_ARTICLES_TOOL,
    SEARCH_ARTICLES_IN_REPORTS_TOOL,
    GET_ARTICLE_DETAILS_TOOL,
    CHART_REPORT_TOOL,
    CHART_STREAM_TOOL,
    DELETE_REPORT_TOOL,
)
"""In the order of `horizon.tool_specs.ALL_TOOL_SPECS`."""


def register_horizon_tools() -> None:
    """Offer Horizon's tools on every page (again: a no-op)."""
    for tool in HORIZON_TOOLS:
        register_tool(tool)
