"""The streams page: the user's research streams, as a list.

Context the web page sends (every key optional; odd values read as empty)::

    current_page: "streams"
    streams: [
        {id, name, purpose,
         topics: ["name", ...] or [{name, description}],   # or topic_count: 5
         report_count: 12, latest_report_date: "2025-01-06"},
        ...
    ]

Each stream is one line: `[id] name — purpose: ...; topics (n): a, b; reports: 12;
latest report: 2025-01-06`. Payloads: `stream_suggestions` (new streams to
create) and `portfolio_insights` (overlaps, gaps, coverage). Client actions:
`open_stream` (`data: {stream_id}`), `create_stream`.
"""

from __future__ import annotations

from typing import Any

from pagechat.pages import (
    ClientAction,
    PayloadConfig,
    as_dict,
    as_id,
    as_list,
    first,
    register_page,
)

from ..page_state import pairs
from ..page_text import ContextText, Label, clean, item
from ..payloads import INSIGHT_KINDS, PORTFOLIO_INSIGHTS, STREAM_SUGGESTIONS
from ._instructions import payload_instructions

__all__ = ["CREATE_STREAM", "OPEN_STREAM", "PAGE", "build_context"]

OPEN_STREAM = ClientAction("open_stream", "Open a stream's edit page.", ("stream_id",))
CREATE_STREAM = ClientAction("create_stream", "Open the page that creates a new stream.")

_PAYLOADS = (
    PayloadConfig(
        type=STREAM_SUGGESTIONS.type,
        parse_marker=STREAM_SUGGESTIONS.marker,
        llm_instructions=payload_instructions(
            STREAM_SUGGESTIONS,
            when="the user asks which new streams to create, or for stream ideas.",
            fields="""\
- suggestions: 1 to 5 of {"name", "purpose", "topics": ["..."], "rationale"}; do not
  repeat a stream the user already has.
- reasoning: optional, one sentence.""",
        ),
        schema=STREAM_SUGGESTIONS.schema,
    ),
    PayloadConfig(
        type=PORTFOLIO_INSIGHTS.type,
        parse_marker=PORTFOLIO_INSIGHTS.marker,
        llm_instructions=payload_instructions(
            PORTFOLIO_INSIGHTS,
            when="the user asks about their streams as a whole: overlaps, gaps, balance, activity.",
            fields=f"""\
- summary: one or two sentences.
- insights: at least one {{"kind", "title", "detail", "stream_ids"}}; kind is one of
  {", ".join(INSIGHT_KINDS)}; stream_ids are the IDs shown in brackets.
- recommendations: optional list of short sentences.""",
        ),
        schema=PORTFOLIO_INSIGHTS.schema,
    ),
)

_INSTRUCTIONS = (
    "The user is looking at the list of their research streams. Each stream is a standing "
    "literature search that produces periodic reports. Help them understand and plan their "
    "portfolio of streams; to open one, offer the open_stream action with its ID."
)


def _stream_line(stream: dict[str, Any]) -> str:
    """One stream as a list item: `[id] name — purpose: ...; topics (n): ...; reports: n`."""
    name = clean(first(stream, "name", "stream_name"), 200) or "(unnamed)"
    stream_id = as_id(first(stream, "id", "stream_id"))
    head = f"[{stream_id}] {name}" if stream_id is not None else name
    details: list[str] = []
    purpose = clean(stream.get("purpose"), 300)
    if purpose:
        details.append(f"purpose: {purpose}")
    topics = [n for n, _ in pairs(stream.get("topics"), ("name",), ())]
    count = as_id(stream.get("topic_count"))
    if topics:
        details.append(f"topics ({len(topics)}): {', '.join(topics[:12])}")
    elif count is not None:
        details.append(f"topics: {count}")
    reports = stream.get("report_count")
    if isinstance(reports, int) and not isinstance(reports, bool) and reports >= 0:
        details.append(f"reports: {reports}")
    latest = clean(stream.get("latest_report_date"), 40)
    if latest:
        details.append(f"latest report: {latest}")
    return item(head, "; ".join(details))


def build_context(context: dict[str, Any]) -> str:
    """Every stream on one line, with its ID in brackets."""
    text = ContextText("streams")
    streams = [as_dict(s) for s in as_list(context.get("streams")) if isinstance(s, dict)]
    text.items(Label.STREAMS, (_stream_line(s) for s in streams), limit=50, item_chars=700)
    return text.render()


PAGE = register_page(
    "streams",
    payloads=_PAYLOADS,
    context_builder=build_context,
    client_actions=[OPEN_STREAM, CREATE_STREAM],
    instructions=_INSTRUCTIONS,
)
