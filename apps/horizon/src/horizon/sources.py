"""Where `search_pubmed` looks: the local article store, or NCBI E-utilities.

`HORIZON_PUBMED=local` (the default) searches the store's full-text index;
`HORIZON_PUBMED=eutils` asks PubMed itself and keeps every record it fetches in
the store, so later look-ups (and other users) find it locally. Both sources
search in two steps — find PMIDs, then fetch their records — so a tool can
report progress between them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from .domain import (
    Article,
    count_matching_articles,
    get_articles,
    import_articles,
    search_articles,
)
from .pubmed import EutilsClient, RateLimiter
from .settings import HorizonSettings

__all__ = ["EutilsPubmed", "Found", "LocalPubmed", "PubmedSource", "open_pubmed_source"]


@dataclass(frozen=True, slots=True)
class Found:
    """One search: how many records match in all, and the best PMIDs, best first."""

    total: int
    pmids: list[str]
    notes: tuple[str, ...] = ()


class PubmedSource(Protocol):
    label: str
    """How the source is named to the user: "the local article store", "PubMed"."""

    async def search(self, query: str, limit: int) -> Found: ...

    async def fetch(self, pmids: Sequence[str]) -> list[Article]:
        """The records of `pmids` (in that order, unknown ones left out), as stored rows."""
        ...


class LocalPubmed:
    label = "the local article store"

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def search(self, query: str, limit: int) -> Found:
        matches = await search_articles(session=self.session, query=query, limit=limit)
        total = await count_matching_articles(session=self.session, query=query)
        return Found(total=total, pmids=[m.article.pmid for m in matches])

    async def fetch(self, pmids: Sequence[str]) -> list[Article]:
        return await get_articles(session=self.session, pmids=pmids)


class EutilsPubmed:
    """PubMed through E-utilities; fetched records are stored (and committed) at once."""

    label = "PubMed"

    def __init__(self, session: AsyncSession, client: EutilsClient) -> None:
        self.session = session
        self.client = client

    async def search(self, query: str, limit: int) -> Found:
        result = await self.client.esearch(query, retmax=limit)
        return Found(total=result.count, pmids=list(result.pmids), notes=result.warnings)

    async def fetch(self, pmids: Sequence[str]) -> list[Article]:
        numeric = [p for p in pmids if p.isdigit()]
        if numeric:
            records = await self.client.efetch(numeric)
            if records:
                await import_articles(session=self.session, records=records)
                await self.session.commit()
        return await get_articles(session=self.session, pmids=pmids)


_LIMITERS: dict[float, RateLimiter] = {}


def _limiter(api_key: str | None) -> RateLimiter:
    """One limiter per rate for the whole process: NCBI counts every request we send."""
    rate = 10.0 if api_key else 3.0
    if rate not in _LIMITERS:
        _LIMITERS[rate] = RateLimiter(rate)
    return _LIMITERS[rate]


@asynccontextmanager
async def open_pubmed_source(
    session: AsyncSession, settings: HorizonSettings | None = None
) -> AsyncIterator[PubmedSource]:
    """The source the settings choose (read from the environment when not given)."""
    settings = settings or HorizonSettings()
    if settings.pubmed != "eutils":
        yield LocalPubmed(session)
        return
    async with EutilsClient(
        settings.eutils_url,
        api_key=settings.ncbi_api_key,
        email=settings.ncbi_email,
        rate_limiter=_limiter(settings.ncbi_api_key),
    ) as client:
        yield EutilsPubmed(session, client)
