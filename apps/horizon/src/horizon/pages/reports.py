"""The reports page: one report of a stream and its articles.

Context the web page sends (every key optional; odd values read as empty)::

    current_page: "reports"
    stream_id: 3, stream_name: "Cancer immunotherapy"     # or stream: {id, name}
    report_id: 42
    report: {id, date, key_highlights: "..." or ["...", ...], thematic_summary,
             article_count}
    articles: [{pmid, title, journal, year, relevance_score, ranking, category,
                starred, notes}, ...]                      # as the page lists them
    selected_article: {pmid, title} or "38012345"

Each article is one line: `PMID 38012345 (rank 1, score 0.92, category: Trials,
starred, has notes) — Title`. The model answers with tools (report summary,
report articles, PubMed), whose cards the web page renders; its one payload is a
shared paper's `schema_proposal` adding the paper to the stream as a topic (see
`_papers`). Client action: `open_article` (`data: {pmid}`). Server actions:
`star_article` (`data: {pmid, starred?}`) and `save_article_note` (`data: {pmid,
notes}`), on the report in the data or the context; `apply_schema_proposal`
(accepting that card), on the stream in the context.
"""

from __future__ import annotations

from typing import Any

from pagechat.pages import (
    ClientAction,
    as_dict,
    as_id,
    as_list,
    as_number,
    first,
    register_page,
)

from ..actions import APPLY_SCHEMA_PROPOSAL, SAVE_ARTICLE_NOTE, STAR_ARTICLE
from ..page_text import ContextText, Label, clean, item
from ._papers import PAPER_INSTRUCTIONS, PAPER_PAYLOAD

__all__ = ["OPEN_ARTICLE", "PAGE", "build_context"]

OPEN_ARTICLE = ClientAction("open_article", "Open an article of this report.", ("pmid",))

_PAGE_INSTRUCTIONS = (
    "The user is reading a report of one of their research streams: key highlights, a "
    "thematic summary and the articles found, each with a relevance score, a category and "
    "the user's stars and notes. Answer from the report and your tools; cite articles by "
    "PMID. To open an article, offer the open_article action with its PMID."
)
_INSTRUCTIONS = f"{_PAGE_INSTRUCTIONS}\n\n{PAPER_INSTRUCTIONS}"

_MAX_ARTICLES = 60


def _article_line(article: dict[str, Any]) -> str:
    pmid = clean(article.get("pmid"), 20)
    title = clean(article.get("title"), 250) or "(untitled)"
    facts: list[str] = []
    rank = as_id(first(article, "ranking", "rank"))
    if rank is not None:
        facts.append(f"rank {rank}")
    score = as_number(first(article, "relevance_score", "score"))
    if score is not None:
        facts.append(f"score {clean(score)}")
    category = clean(first(article, "category", "presentation_category"), 80)
    if category:
        facts.append(f"category: {category}")
    year = as_id(article.get("year"))
    if year is not None:
        facts.append(str(year))
    if article.get("starred") is True:
        facts.append("starred")
    if clean(article.get("notes")):
        facts.append("has notes")
    head = f"PMID {pmid}" if pmid else "PMID unknown"
    if facts:
        head += f" ({', '.join(facts)})"
    return item(head, title)


def _selected(context: dict[str, Any]) -> tuple[str, str]:
    raw = context.get("selected_article")
    if isinstance(raw, dict):
        return clean(raw.get("pmid"), 20), clean(raw.get("title"), 300)
    return clean(raw, 20), ""


def build_context(context: dict[str, Any]) -> str:
    """The report's date, highlights, summary and a compact list of its articles."""
    text = ContextText("reports")
    stream = as_dict(context.get("stream"))
    report = as_dict(context.get("report"))
    text.field(Label.STREAM_ID, as_id(first(context, "stream_id") or stream.get("id")))
    text.field(Label.STREAM_NAME, first(context, "stream_name") or stream.get("name"), limit=200)
    report_id = as_id(context.get("report_id")) or as_id(report.get("id"))
    text.field(Label.REPORT_ID, report_id, always=True)
    text.field(Label.REPORT_DATE, first(report, "date", "report_date"), limit=40)
    highlights = first(report, "key_highlights", "highlights")
    if isinstance(highlights, list):
        text.items(Label.HIGHLIGHTS, highlights, limit=10)
    else:
        text.field(Label.HIGHLIGHTS, highlights, limit=1500)
    text.field(Label.SUMMARY, report.get("thematic_summary"), limit=2000)
    articles = [as_dict(a) for a in as_list(context.get("articles")) if isinstance(a, dict)]
    count = as_id(report.get("article_count"))
    if count is not None and count != len(articles):
        text.line(f"The report has {count} articles; the page sent {len(articles)}.")
    text.items(Label.ARTICLES, (_article_line(a) for a in articles), limit=_MAX_ARTICLES)
    pmid, title = _selected(context)
    text.field(Label.SELECTED_PMID, pmid)
    text.field(Label.SELECTED_TITLE, title, limit=300)
    return text.render()


PAGE = register_page(
    "reports",
    context_builder=build_context,
    client_actions=[OPEN_ARTICLE],
    payloads=(PAPER_PAYLOAD,),
    server_actions=[STAR_ARTICLE, SAVE_ARTICLE_NOTE, APPLY_SCHEMA_PROPOSAL],
    instructions=_INSTRUCTIONS,
    context_budget=12_000,
)
