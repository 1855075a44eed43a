"""The article page: one article, and how it fits the report it was opened from.

Context the web page sends (every key optional; odd values read as empty)::

    current_page: "article"
    article: {pmid, title, authors: ["Last FI", ...] or "...", journal, year,
              abstract, doi,
              relevance_score, rationale, category, starred, notes}   # from a report
    report_id: 42, stream_id: 3                                       # when opened from one

The model answers with tools (PubMed, stored articles, reports). Opened from a
report, its server actions star the article or save notes on it there:
`star_article`, `save_article_note`; and a shared paper's `schema_proposal` (see
`_papers`) adds the paper to that report's stream: `apply_schema_proposal`.
"""

from __future__ import annotations

from typing import Any

from pagechat.pages import as_dict, as_id, as_list, as_number, first, register_page

from ..actions import APPLY_SCHEMA_PROPOSAL, SAVE_ARTICLE_NOTE, STAR_ARTICLE
from ..page_text import ContextText, Label, clean
from ._papers import PAPER_INSTRUCTIONS, PAPER_PAYLOAD

__all__ = ["PAGE", "build_context"]

_PAGE_INSTRUCTIONS = (
    "The user is reading one article. Explain it plainly, answer from its abstract and "
    "your tools, and say when the abstract does not tell. Cite articles by PMID."
)
_INSTRUCTIONS = f"{_PAGE_INSTRUCTIONS}\n\n{PAPER_INSTRUCTIONS}"

_AUTHORS_SHOWN = 8


def _authors(value: Any) -> str:
    if isinstance(value, str):
        return clean(value, 500)
    names = [clean(a, 80) for a in as_list(value)]
    names = [n for n in names if n]
    shown = ", ".join(names[:_AUTHORS_SHOWN])
    more = len(names) - _AUTHORS_SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def build_context(context: dict[str, Any]) -> str:
    """The article's citation, abstract and report facts (score, category, notes)."""
    text = ContextText("article")
    article = as_dict(context.get("article"))
    text.field(Label.ARTICLE_PMID, article.get("pmid"), limit=20, always=True)
    text.field(Label.TITLE, article.get("title"), limit=400, always=True)
    text.field(Label.AUTHORS, _authors(article.get("authors")))
    text.field(Label.JOURNAL, article.get("journal"), limit=200)
    text.field(Label.YEAR, as_id(article.get("year")))
    text.field(Label.DOI, article.get("doi"), limit=200)
    text.field(Label.REPORT_ID, as_id(first(context, "report_id")))
    text.field(Label.STREAM_ID, as_id(first(context, "stream_id")))
    text.field(Label.RELEVANCE, as_number(first(article, "relevance_score", "score")))
    text.field(Label.RATIONALE, first(article, "rationale", "relevance_rationale"), limit=800)
    text.field(Label.CATEGORY, first(article, "category", "presentation_category"), limit=80)
    if isinstance(article.get("starred"), bool):
        text.field(Label.STARRED, article["starred"])
    text.field(Label.NOTES, article.get("notes"), limit=800)
    text.field(Label.ABSTRACT, article.get("abstract"), limit=4000, always=True)
    return text.render()


PAGE = register_page(
    "article",
    context_builder=build_context,
    payloads=(PAPER_PAYLOAD,),
    server_actions=[STAR_ARTICLE, SAVE_ARTICLE_NOTE, APPLY_SCHEMA_PROPOSAL],
    instructions=_INSTRUCTIONS,
)
