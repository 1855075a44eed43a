"""The article store: shared PubMed records, one row per PMID, and the importer.

Keyword-only functions on an `AsyncSession`; they flush but never commit, so the
caller owns the transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.store import utcnow

from ..pubmed import ArticleRecord, DeletedCitation
from .tables import Article, ReportArticle

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "ImportCounts",
    "count_articles",
    "get_article",
    "get_articles",
    "import_articles",
    "normalize_pmid",
    "record_of",
]

DEFAULT_BATCH_SIZE = 500
_IN_CHUNK = 500
_UPDATED_COLUMNS = (
    "title",
    "abstract",
    "authors",
    "journal",
    "year",
    "doi",
    "mesh_terms",
    "source",
    "updated_at",
)


@dataclass
class ImportCounts:
    """What an import did.

    Every record read is either `inserted` (its PMID was new to the store) or
    `updated` (it replaced an earlier version: last wins). A deletion (NLM's
    `DeleteCitation`) removes the article unless a report lists it (`kept`).
    """

    records: int = 0
    deletions: int = 0
    inserted: int = 0
    updated: int = 0
    deleted: int = 0
    kept: int = 0

    def add(self, other: ImportCounts) -> None:
        for name in ("records", "deletions", "inserted", "updated", "deleted", "kept"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def record_of(article: Article) -> ArticleRecord:
    """The stored row as the record PubMed tools work with."""
    return ArticleRecord(
        pmid=article.pmid,
        title=article.title,
        abstract=article.abstract,
        authors=tuple(article.authors),
        journal=article.journal,
        year=article.year,
        doi=article.doi,
        mesh_terms=tuple(article.mesh_terms),
        source=article.source,
    )


def normalize_pmid(pmid: str) -> str:
    """A PMID as stored: no surrounding space; a sample's "syn000001" upper-cased."""
    return pmid.strip().upper()


async def get_article(*, session: AsyncSession, pmid: str) -> Article | None:
    result = await session.execute(select(Article).where(Article.pmid == normalize_pmid(pmid)))
    return result.scalar_one_or_none()


async def get_articles(*, session: AsyncSession, pmids: Sequence[str]) -> list[Article]:
    """The stored articles of `pmids`, in that order; PMIDs not in the store are left out."""
    wanted = list(dict.fromkeys(pmids))
    found: dict[str, Article] = {}
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        result = await session.execute(select(Article).where(Article.pmid.in_(chunk)))
        found.update((a.pmid, a) for a in result.scalars())
    return [found[p] for p in wanted if p in found]


async def count_articles(*, session: AsyncSession) -> int:
    result = await session.execute(select(func.count()).select_from(Article))
    return int(result.scalar_one())


async def import_articles(
    *,
    session: AsyncSession,
    records: Iterable[ArticleRecord | DeletedCitation],
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> ImportCounts:
    """Store `records` in order, upserting by PMID (the last version wins).

    `DeletedCitation`s in the stream are applied where they stand, so a record
    deleted by an update file and revised later comes back. Works in batches, so
    a large stream (a parser's iterator) is never held in memory whole.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    counts = ImportCounts()
    pending: list[ArticleRecord] = []
    deletions: list[str] = []
    for item in records:
        if isinstance(item, DeletedCitation):
            if pending:
                await _upsert(session, pending, counts)
                pending = []
            deletions.append(item.pmid)
            counts.deletions += 1
            continue
        if deletions:
            await _delete(session, deletions, counts)
            deletions = []
        pending.append(item)
        if len(pending) >= batch_size:
            await _upsert(session, pending, counts)
            pending = []
    if pending:
        await _upsert(session, pending, counts)
    if deletions:
        await _delete(session, deletions, counts)
    return counts


def _row(record: ArticleRecord) -> dict[str, Any]:
    now = utcnow()
    return {
        "pmid": record.pmid,
        "title": record.title,
        "abstract": record.abstract,
        "authors": list(record.authors),
        "journal": record.journal[:500],
        "year": record.year,
        "doi": record.doi[:255] if record.doi else None,
        "mesh_terms": list(record.mesh_terms),
        "source": record.source[:500],
        "created_at": now,
        "updated_at": now,
    }


async def _existing(session: AsyncSession, pmids: list[str]) -> set[str]:
    result = await session.execute(select(Article.pmid).where(Article.pmid.in_(pmids)))
    return set(result.scalars())


async def _upsert(session: AsyncSession, batch: list[ArticleRecord], counts: ImportCounts) -> None:
    latest = {record.pmid: record for record in batch}  # last wins within the batch too
    known = await _existing(session, list(latest))
    for record in batch:
        counts.records += 1
        if record.pmid in known:
            counts.updated += 1
        else:
            counts.inserted += 1
            known.add(record.pmid)
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(Article).values([_row(r) for r in latest.values()])
    statement = statement.on_conflict_do_update(
        index_elements=[Article.pmid],
        set_={name: statement.excluded[name] for name in _UPDATED_COLUMNS},
    )
    await session.execute(statement)


async def _delete(session: AsyncSession, pmids: list[str], counts: ImportCounts) -> None:
    wanted = list(dict.fromkeys(pmids))
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        in_report = (
            select(ReportArticle.article_id).where(ReportArticle.article_id == Article.id).exists()
        )
        result = await session.execute(select(Article.id, in_report).where(Article.pmid.in_(chunk)))
        rows = list(result)
        removable = [article_id for article_id, listed in rows if not listed]
        counts.kept += len(rows) - len(removable)
        if removable:
            await session.execute(delete(Article).where(Article.id.in_(removable)))
            counts.deleted += len(removable)
