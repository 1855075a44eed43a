"""Articles: search the shared article store, and read one with your reports' marks on it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, status

from pagechat.server import CurrentUser, SessionDep

from ..domain import (
    ArticleDetail,
    ArticleMatchPublic,
    ArticlePublic,
    ArticleSearchResults,
    article_reports,
    count_matching_articles,
    get_article,
    search_articles,
)

__all__ = ["router"]

router = APIRouter(prefix="/api/horizon", tags=["horizon: articles"])


@router.get("/articles")
async def search_article_store(
    session: SessionDep,
    user: CurrentUser,
    q: Annotated[str, Query(min_length=1, max_length=500, description="Words to search for")],
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> ArticleSearchResults:
    """The best matches first: articles with every word, then those with some."""
    matches = await search_articles(session=session, query=q, limit=limit)
    total = await count_matching_articles(session=session, query=q)
    data = [
        ArticleMatchPublic(
            **ArticlePublic.model_validate(m.article, from_attributes=True).model_dump(),
            score=m.score,
        )
        for m in matches
    ]
    return ArticleSearchResults(query=q, total=total, data=data)


@router.get("/articles/{pmid}", responses={404: {"description": "No such article"}})
async def read_article(
    pmid: Annotated[str, Path(min_length=1, max_length=20)],
    session: SessionDep,
    user: CurrentUser,
) -> ArticleDetail:
    article = await get_article(session=session, pmid=pmid)
    if article is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Article not found")
    entries = await article_reports(session=session, user_id=user.id, pmid=pmid)
    public = ArticlePublic.model_validate(article, from_attributes=True)
    return ArticleDetail(**public.model_dump(), reports=entries)
