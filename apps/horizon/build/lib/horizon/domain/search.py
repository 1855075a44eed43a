"""Searching the article store by words, best matches first.

Articles that have every term of the query come first, then those with only
some; within each group the database's relevance score ranks them (bm25 on
SQLite, ts_rank on PostgreSQL), ties going to the newer article, then the lower
PMID. A query with nothing searchable in it ("the", "[tiab]") finds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from .fulltext import SearchTerms, match_ids, parse_query
from .tables import Article

__all__ = ["ArticleMatch", "count_matching_articles", "search_articles"]


@dataclass(frozen=True, slots=True)
class ArticleMatch:
    article: Article
    score: float
    """The database's relevance score: higher is better; comparable within one search."""
    all_terms: bool
    """Whether the article has every term of the query."""


def _dialect(session: AsyncSession) -> str:
    return session.get_bind().dialect.name


async def search_articles(
    *,
    session: AsyncSession,
    query: str,
    limit: int = 10,
    within: Select[int] | None = None,
) -> list[ArticleMatch]:
    """The best `limit` articles for `query`; `within` (a select of article ids) narrows
    the search, e.g. to the articles of a user's reports."""
    terms = parse_query(query)
    if not terms or limit < 1:
        return []
    found: list[ArticleMatch] = []
    for require_all in (True,) if terms.is_single else (True, False):
        wanted = limit - len(found)
        if wanted <= 0:
            break
        found += await _ranked(
            session,
            terms,
            require_all=require_all,
            limit=wanted,
            within=within,
            exclude=[m.article.id for m in found],
        )
    return found


async def _ranked(
    session: AsyncSession,
    terms: SearchTerms,
    *,
    require_all: bool,
    limit: int,
    within: Select[int] | None,
    exclude: list[int],
) -> list[ArticleMatch]:
    matched = match_ids(_dialect(session), terms, require_all=require_all).subquery("matched")
    statement = select(Article, matched.c.score).join(matched, Article.id == matched.c.article_id)
    if within is not None:
        statement = statement.where(Article.id.in_(within))
    if exclude:
        statement = statement.where(Article.id.not_in(exclude))
    statement = statement.order_by(
        matched.c.score.desc(), Article.year.desc().nulls_last(), Article.pmid
    ).limit(limit)
    result = await session.execute(statement)
    return [
        ArticleMatch(article=article, score=float(score), all_terms=require_all)
        for article, score in result
    ]


async def count_matching_articles(
    *, session: AsyncSession, query: str, within: Select[int] | None = None
) -> int:
    """How many articles have at least one term of `query`."""
    terms = parse_query(query)
    if not terms:
        return 0
    matched = match_ids(_dialect(session), terms, require_all=False).subquery("matched")
    statement = select(func.count()).select_from(matched)
    if within is not None:
        statement = statement.where(matched.c.article_id.in_(within))
    result = await session.execute(statement)
    return int(result.scalar_one())
