"""`list_research_streams` and `get_stream_details`: the user's own streams only."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.tools import ToolResult

from ..domain import StreamPublic, get_stream, list_reports, list_streams, stream_public
from ..tool_specs import GET_STREAM_DETAILS, LIST_RESEARCH_STREAMS
from .common import error, from_spec, one_line, scoped

__all__ = [
    "GET_STREAM_DETAILS_TOOL",
    "LIST_RESEARCH_STREAMS_TOOL",
    "get_stream_details",
    "list_research_streams",
]

_REPORTS_SHOWN = 5


def _stream_line(stream: StreamPublic) -> str:
    facts = [f"{len(stream.semantic_space.topics)} topics", f"{stream.report_count} reports"]
    if stream.latest_report_date is not None:
        facts.append(f"latest {stream.latest_report_date.isoformat()}")
    purpose = f" — {one_line(stream.purpose)}" if stream.purpose else ""
    return f"- ID {stream.id}: {one_line(stream.name)}{purpose} ({', '.join(facts)})"


@scoped
async def list_research_streams(
    params: dict[str, Any], session: AsyncSession, user_id: str
) -> ToolResult:
    streams = await list_streams(session=session, user_id=user_id)
    if not streams:
        return ToolResult("You have no research streams yet.")
    lines = [f"You have {len(streams)} research streams:", *map(_stream_line, streams)]
    return ToolResult("\n".join(lines))


def _joined(items: list[str]) -> str:
    return "; ".join(items) if items else "none"


def _details(stream: StreamPublic) -> list[str]:
    semantic = stream.semantic_space
    topics = [f"{t.name} ({t.description})" if t.description else t.name for t in semantic.topics]
    return [
        f"Stream ID: {stream.id}",
        f"Name: {one_line(stream.name)}",
        f"Purpose: {one_line(stream.purpose) or '(not set)'}",
        f"Topics: {_joined(topics)}",
        f"Entities: {_joined([f'{e.name} ({e.type})' for e in semantic.entities])}",
        f"Inclusion notes: {one_line(semantic.inclusion_notes) or '(none)'}",
        f"Exclusion notes: {one_line(semantic.exclusion_notes) or '(none)'}",
        "Retrieval queries: "
        + _joined([f"{q.source}: {one_line(q.query)}" for q in stream.retrieval_config.queries]),
        "Presentation categories: "
        + _joined([c.name for c in stream.presentation_config.categories]),
        f"Reports: {stream.report_count}",
    ]


@scoped
async def get_stream_details(
    params: dict[str, Any], session: AsyncSession, user_id: str
) -> ToolResult:
    stream_id = int(params["stream_id"])
    stream = await get_stream(session=session, user_id=user_id, stream_id=stream_id)
    if stream is None:
        return error(
            f"You have no research stream with ID {stream_id}; "
            "list_research_streams shows your streams and their IDs."
        )
    public = await stream_public(session=session, stream=stream)
    lines = _details(public)
    reports = await list_reports(session=session, user_id=user_id, stream_id=stream_id) or []
    if reports:
        lines.append("Latest reports:")
        lines += [
            f"- Report ID {r.id} — {r.report_date.isoformat()}, {r.article_count} articles"
            for r in reports[:_REPORTS_SHOWN]
        ]
    return ToolResult("\n".join(lines))


LIST_RESEARCH_STREAMS_TOOL = from_spec(LIST_RESEARCH_STREAMS, list_research_streams)
GET_STREAM_DETAILS_TOOL = from_spec(GET_STREAM_DETAILS, get_stream_details)
