"""What every Horizon tool shares: its database scope, errors, and how articles read as text.

Text follows `horizon.tool_specs`: an article in a list is one line
`PMID <id> — Title (Journal, Year)`; details are `Label: value` lines.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.models import ToolSpec
from pagechat.tools import Source, ToolConfig, ToolContext, ToolExecutor, ToolResult

from ..domain import Article

__all__ = [
    "NoScope",
    "article_data",
    "article_line",
    "article_source",
    "article_text",
    "authors_text",
    "error",
    "from_spec",
    "one_line",
    "pubmed_url",
    "scope",
    "scoped",
    "snippet",
    "source_of",
]

_AUTHORS_SHOWN = 10
SNIPPET_CHARS = 300


class NoScope(Exception):
    """The tool was called without a database session or without a user."""


def from_spec(spec: ToolSpec, executor: ToolExecutor, *, timeout: float = 60.0) -> ToolConfig:
    """The tool the offline model and the real one both know by `spec` (horizon.tool_specs).
    Every Horizon tool acts for the signed-in user (`scope`)."""
    return ToolConfig(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input_schema,
        executor=executor,
        timeout=timeout,
        needs_user=True,
    )


def scope(ctx: ToolContext) -> tuple[AsyncSession, str]:
    """The run's database session and the user the tool acts for."""
    if not isinstance(ctx.session, AsyncSession):
        raise NoScope("Horizon's tools need the app's database, and this run has none.")
    if not ctx.user_id:
        raise NoScope("Horizon's tools act for a signed-in user, and this run has none.")
    return ctx.session, ctx.user_id


ScopedRun = Callable[[dict[str, Any], AsyncSession, str], Awaitable[ToolResult]]
"""A tool's work given its input, the run's database session and the user it acts for."""


def scoped(run: ScopedRun) -> Callable[[dict[str, Any], ToolContext], Awaitable[ToolResult]]:
    """The executor of `run`: it gets the run's session and user (`scope`), or the tool
    answers, as an error, why there are none."""

    @functools.wraps(run)
    async def executor(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            session, user_id = scope(ctx)
        except NoScope as exc:
            return error(str(exc))
        return await run(params, session, user_id)

    return executor


def error(text: str) -> ToolResult:
    return ToolResult(text, is_error=True)


def one_line(text: str) -> str:
    return " ".join(text.split())


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of `text` on one line, cut at a word and marked with "…" when cut."""
    flat = one_line(text)
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0].rstrip(" ,;:.")
    return cut + "…"


_NUMERIC_PMID = re.compile(r"^\d{1,12}$")


def pubmed_url(pmid: str) -> str | None:
    """The article's PubMed page; none for a record PubMed does not have (a synthetic one)."""
    return f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/" if _NUMERIC_PMID.match(pmid) else None


def article_source(
    *, pmid: str, title: str, journal: str = "", year: int | None = None, abstract: str = ""
) -> Source:
    """An article as a source the model cites: its PMID, title, journal and year, and
    its PubMed link."""
    facts = ", ".join(p for p in (one_line(journal), str(year) if year else "") if p)
    return Source(
        id=pmid,
        title=(one_line(title) or "(untitled)")[:500],
        url=pubmed_url(pmid),
        detail=f"PMID {pmid}" + (f" · {facts}" if facts else ""),
        snippet=snippet(abstract) if abstract else "",
    )


def source_of(article: Article) -> Source:
    """`article_source` of a stored article."""
    return article_source(
        pmid=article.pmid,
        title=article.title,
        journal=article.journal,
        year=article.year,
        abstract=article.abstract,
    )


def _byline(article: Article) -> str:
    parts = [p for p in (article.journal, str(article.year) if article.year else "") if p]
    return f" ({', '.join(parts)})" if parts else ""


def article_line(article: Article) -> str:
    """`PMID <id> — Title (Journal, Year)`."""
    title = one_line(article.title) or "(untitled)"
    return f"PMID {article.pmid} — {title}{_byline(article)}"


def authors_text(authors: list[str]) -> str:
    shown = ", ".join(authors[:_AUTHORS_SHOWN])
    more = len(authors) - _AUTHORS_SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def article_text(article: Article) -> str:
    """The whole record as `Label: value` lines, the abstract last."""
    lines = [f"PMID: {article.pmid}", f"Title: {one_line(article.title)}"]
    if article.authors:
        lines.append(f"Authors: {authors_text(list(article.authors))}")
    if article.journal:
        lines.append(f"Journal: {one_line(article.journal)}")
    if article.year:
        lines.append(f"Year: {article.year}")
    if article.doi:
        lines.append(f"DOI: {article.doi}")
    if article.mesh_terms:
        lines.append(f"MeSH terms: {'; '.join(article.mesh_terms)}")
    lines.append(f"Abstract: {article.abstract.strip() or '(no abstract)'}")
    return "\n".join(lines)


def article_data(article: Article, *, full: bool = True) -> dict[str, Any]:
    """An article for a payload (`horizon.payloads` shapes): the whole abstract, or a snippet."""
    return {
        "pmid": article.pmid,
        "title": article.title,
        "authors": list(article.authors),
        "journal": article.journal,
        "year": article.year,
        "doi": article.doi,
        "abstract": article.abstract if full else snippet(article.abstract),
        **({"mesh_terms": list(article.mesh_terms), "source": article.source} if full else {}),
    }
