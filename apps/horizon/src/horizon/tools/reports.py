"""Report tools: summary, articles, search across the user's reports, an article's details.

Every one reads through the user's id: another user's report is "not found".
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.tools import EntityChange, ToolResult

from ..domain import (
    ReportArticlePublic,
    ReportEntry,
    article_reports,
    delete_report,
    get_article,
    get_report,
    report_articles,
    search_articles,
    user_article_ids,
)
from ..payloads import PUBMED_ARTICLE
from ..tool_specs import (
    DELETE_REPORT,
    GET_ARTICLE_DETAILS,
    GET_REPORT_ARTICLES,
    GET_REPORT_SUMMARY,
    SEARCH_ARTICLES_IN_REPORTS,
)
from .common import (
    article_data,
    article_line,
    article_source,
    article_text,
    error,
    from_spec,
    one_line,
    scoped,
    source_of,
)

__all__ = [
    "DELETE_REPORT_TOOL",
    "GET_ARTICLE_DETAILS_TOOL",
    "GET_REPORT_ARTICLES_TOOL",
    "GET_REPORT_SUMMARY_TOOL",
    "SEARCH_ARTICLES_IN_REPORTS_TOOL",
    "get_article_details",
    "get_report_articles",
    "get_report_summary",
    "search_articles_in_reports",
]

DEFAULT_ARTICLES = 50
DEFAULT_MATCHES = 20


def _no_report(report_id: int) -> ToolResult:
    return error(
        f"You have no report with ID {report_id}; "
        "get_stream_details lists a stream's reports and their IDs."
    )


@scoped
async def get_report_summary(
    params: dict[str, Any], session: AsyncSession, user_id: str
) -> ToolResult:
    report_id = int(params["report_id"])
    report = await get_report(session=session, user_id=user_id, report_id=report_id)
    if report is None:
        return _no_report(report_id)
    highlights = "; ".join(one_line(h) for h in report.key_highlights) or "(none)"
    lines = [
        f"Report ID: {report.id}",
        f"Stream: {one_line(report.stream_name)} (stream ID {report.stream_id})",
        f"Date: {report.report_date.isoformat()}",
        f"Articles: {report.article_count}",
        f"Key highlights: {highlights}",
        f"Thematic summary: {one_line(report.thematic_summary) or '(none)'}",
    ]
    return ToolResult("\n".join(lines))


def _facts(entry: ReportArticlePublic) -> str:
    facts = [f"rank {entry.ranking}", f"score {entry.relevance_score:.2f}"]
    if entry.category:
        facts.append(f"category: {entry.category}")
    if entry.starred:
        facts.append("starred")
    if entry.notes.strip():
        facts.append("has notes")
    return ", ".join(facts)


def _entry_lines(number: int, entry: ReportArticlePublic) -> list[str]:
    byline = ", ".join(p for p in (entry.journal, str(entry.year or "")) if p)
    title = one_line(entry.title) + (f" ({byline})" if byline else "")
    lines = [f"{number}. PMID {entry.pmid} ({_facts(entry)}) — {title}"]
    if entry.rationale:
        lines.append(f"   Why: {one_line(entry.rationale)}")
    if entry.notes.strip():
        lines.append(f"   Your notes: {one_line(entry.notes)}")
    return lines


@scoped
async def get_report_articles(
    params: dict[str, Any], session: AsyncSession, user_id: str
) -> ToolResult:
    report_id = int(params["report_id"])
    limit = int(params.get("limit", DEFAULT_ARTICLES))
    report = await get_report(session=session, user_id=user_id, report_id=report_id)
    if report is None:
        return _no_report(report_id)
    entries = await report_articles(
        session=session, user_id=user_id, report_id=report_id, limit=limit
    )
    head = (
        f"Report {report.id} ({one_line(report.stream_name)}, {report.report_date.isoformat()}) "
        f"has {report.article_count} articles"
    )
    if not entries:
        return ToolResult(head + ".")
    shown = "" if len(entries) == report.article_count else f"; the best {len(entries)}"
    lines = [f"{head}{shown}, best ranked first:"]
    for number, entry in enumerate(entries, 1):
        lines += _entry_lines(number, entry)
    sources = [
        article_source(
            pmid=e.pmid, title=e.title, journal=e.journal, year=e.year, abstract=e.abstract
        )
        for e in entries
    ]
    return ToolResult("\n".join(lines), sources=sources)


def _where(entries: list[ReportEntry]) -> str:
    parts = []
    for e in entries:
        marks = f"score {e.relevance_score:.2f}" + (", starred" if e.starred else "")
        parts.append(f'report {e.report_id} of "{e.stream_name}", {e.report_date}, {marks}')
    return "; ".join(parts)


@scoped
async def search_articles_in_reports(
    params: dict[str, Any], session: AsyncSession, user_id: str
) -> ToolResult:
    query = " ".join(str(params["query"]).split())
    limit = int(params.get("limit", DEFAULT_MATCHES))
    matches = await search_articles(
        session=session, query=query, limit=limit, within=user_article_ids(user_id)
    )
    if not matches:
        return ToolResult(f'No article in your reports matches "{query}".')
    lines = [f'{len(matches)} articles in your reports match "{query}", best first:']
    for match in matches:
        entries = await article_reports(session=session, user_id=user_id, pmid=match.article.pmid)
        lines.append(f"- {article_line(match.article)} [{_where(entries)}]")
    return ToolResult("\n".join(lines), sources=[source_of(m.article) for m in matches])


def _entry_text(entry: ReportEntry) -> str:
    facts = [f"rank {entry.ranking}", f"score {entry.relevance_score:.2f}"]
    if entry.category:
        facts.append(f"category: {entry.category}")
    if entry.starred:
        facts.append("starred")
    text = (
        f"- Report ID {entry.report_id} ({one_line(entry.stream_name)}, "
        f"{entry.report_date.isoformat()}): {', '.join(facts)}"
    )
    if entry.notes.strip():
        text += f"; your notes: {one_line(entry.notes)}"
    return text


@scoped
async def get_article_details(
    params: dict[str, Any], session: AsyncSession, user_id: str
) -> ToolResult:
    pmid = str(params["pmid"]).strip().upper()
    article = await get_article(session=session, pmid=pmid)
    if article is None:
        return error(
            f"PMID {pmid} is not in Horizon's article store; get_pubmed_article looks it up "
            "in PubMed."
        )
    entries = await article_reports(session=session, user_id=user_id, pmid=pmid)
    text = article_text(article)
    if entries:
        text += f"\nIn your reports ({len(entries)}):\n" + "\n".join(map(_entry_text, entries))
    else:
        text += "\nIn your reports: none"
    data = {**article_data(article), "reports": [e.model_dump(mode="json") for e in entries]}
    return ToolResult(text, {"type": PUBMED_ARTICLE, "data": data}, sources=[source_of(article)])


GET_REPORT_SUMMARY_TOOL = from_spec(GET_REPORT_SUMMARY, get_report_summary)
GET_REPORT_ARTICLES_TOOL = from_spec(GET_REPORT_ARTICLES, get_report_articles)
SEARCH_ARTICLES_IN_REPORTS_TOOL = from_spec(SEARCH_ARTICLES_IN_REPORTS, search_articles_in_reports)
GET_ARTICLE_DETAILS_TOOL = from_spec(GET_ARTICLE_DETAILS, get_article_details)


@scoped
async def delete_report_tool(
    params: dict[str, Any], session: AsyncSession, user_id: str
) -> ToolResult:
    """Delete a report; it runs only after the user approved (see DELETE_REPORT_TOOL)."""
    report_id = int(params["report_id"])
    if not await delete_report(session=session, user_id=user_id, report_id=report_id):
        return _no_report(report_id)
    await session.commit()
    # The pages showing it (here or in another tab) move on to the stream's reports.
    gone = EntityChange(entity="report", id=str(report_id), change="deleted")
    return ToolResult(f"Deleted report {report_id}.", changes=[gone])


DELETE_REPORT_TOOL = dataclasses.replace(
    from_spec(DELETE_REPORT, delete_report_tool),
    requires_approval=True,
    approval_reason=lambda params: (
        f"Deletes report {params.get('report_id')} and its article list; this cannot be undone."
    ),
)
