"""Reports and their articles: keyword-only functions on an `AsyncSession`, scoped to a user.

A report belongs to the user who owns its stream. Every read and write here
takes the user's id and finds nothing (None) for another user's report, exactly
as for one that does not exist. The functions flush but never commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.store import utcnow

from .articles import normalize_pmid
from .schemas import (
    ReportArticlePublic,
    ReportArticleUpdate,
    ReportDetail,
    ReportEntry,
    ReportPublic,
)
from .tables import Article, Report, ReportArticle, ResearchStream

__all__ = [
    "NewReportArticle",
    "article_reports",
    "create_report",
    "delete_report",
    "get_report",
    "get_report_detail",
    "list_reports",
    "report_articles",
    "update_report_article",
    "user_article_ids",
]


@dataclass(frozen=True, slots=True)
class NewReportArticle:
    article: Article
    relevance_score: float
    rationale: str
    ranking: int
    category: str | None = None
    starred: bool = False
    notes: str = ""


async def create_report(
    *,
    session: AsyncSession,
    stream: ResearchStream,
    report_date: date,
    key_highlights: Sequence[str],
    thematic_summary: str,
    articles: Sequence[NewReportArticle] = (),
) -> Report:
    report = Report(
        stream_id=stream.id,
        report_date=report_date,
        key_highlights=list(key_highlights),
        thematic_summary=thematic_summary,
        created_at=utcnow(),
    )
    session.add(report)
    await session.flush()
    session.add_all(
        ReportArticle(
            report_id=report.id,
            article_id=entry.article.id,
            relevance_score=entry.relevance_score,
            rationale=entry.rationale,
            ranking=entry.ranking,
            category=entry.category,
            starred=entry.starred,
            notes=entry.notes,
            updated_at=utcnow(),
        )
        for entry in articles
    )
    await session.flush()
    return report


def _owned_reports() -> Select[Report, ResearchStream]:
    return select(Report, ResearchStream).join(
        ResearchStream, Report.stream_id == ResearchStream.id
    )


async def _article_counts(session: AsyncSession, report_ids: list[int]) -> dict[int, int]:
    if not report_ids:
        return {}
    result = await session.execute(
        select(ReportArticle.report_id, func.count())
        .where(ReportArticle.report_id.in_(report_ids))
        .group_by(ReportArticle.report_id)
    )
    return dict(result.all())


def _public(report: Report, stream: ResearchStream, count: int) -> ReportPublic:
    return ReportPublic(
        id=report.id,
        stream_id=stream.id,
        stream_name=stream.name,
        report_date=report.report_date,
        key_highlights=list(report.key_highlights),
        thematic_summary=report.thematic_summary,
        article_count=count,
        created_at=report.created_at,
    )


async def list_reports(
    *, session: AsyncSession, user_id: str, stream_id: int
) -> list[ReportPublic] | None:
    """The stream's reports, newest first; None when the stream is not the user's."""
    stream = await session.scalar(
        select(ResearchStream).where(
            ResearchStream.id == stream_id, ResearchStream.user_id == user_id
        )
    )
    if stream is None:
        return None
    result = await session.execute(
        select(Report)
        .where(Report.stream_id == stream.id)
        .order_by(Report.report_date.desc(), Report.id.desc())
    )
    reports = list(result.scalars())
    counts = await _article_counts(session, [r.id for r in reports])
    return [_public(r, stream, counts.get(r.id, 0)) for r in reports]


async def get_report(*, session: AsyncSession, user_id: str, report_id: int) -> ReportPublic | None:
    result = await session.execute(
        _owned_reports().where(Report.id == report_id, ResearchStream.user_id == user_id)
    )
    row = result.one_or_none()
    if row is None:
        return None
    report, stream = row
    counts = await _article_counts(session, [report.id])
    return _public(report, stream, counts.get(report.id, 0))


async def delete_report(*, session: AsyncSession, user_id: str, report_id: int) -> bool:
    """Delete the user's report (its entries go with it); False when there is none."""
    report = await session.scalar(
        select(Report)
        .join(ResearchStream, ResearchStream.id == Report.stream_id)
        .where(Report.id == report_id, ResearchStream.user_id == user_id)
    )
    if report is None:
        return False
    await session.delete(report)
    await session.flush()
    return True


def _entry_public(entry: ReportArticle, article: Article) -> ReportArticlePublic:
    return ReportArticlePublic(
        pmid=article.pmid,
        title=article.title,
        abstract=article.abstract,
        authors=list(article.authors),
        journal=article.journal,
        year=article.year,
        doi=article.doi,
        mesh_terms=list(article.mesh_terms),
        source=article.source,
        report_id=entry.report_id,
        relevance_score=entry.relevance_score,
        rationale=entry.rationale,
        ranking=entry.ranking,
        category=entry.category,
        starred=entry.starred,
        notes=entry.notes,
    )


def _owned_entries(user_id: str) -> Select[ReportArticle, Article]:
    return (
        select(ReportArticle, Article)
        .join(Article, ReportArticle.article_id == Article.id)
        .join(Report, ReportArticle.report_id == Report.id)
        .join(ResearchStream, Report.stream_id == ResearchStream.id)
        .where(ResearchStream.user_id == user_id)
    )


async def report_articles(
    *, session: AsyncSession, user_id: str, report_id: int, limit: int | None = None
) -> list[ReportArticlePublic]:
    """The report's articles, best ranked first (empty for another user's report)."""
    statement = (
        _owned_entries(user_id)
        .where(ReportArticle.report_id == report_id)
        .order_by(ReportArticle.ranking, Article.pmid)
        .limit(limit)
    )
    result = await session.execute(statement)
    return [_entry_public(entry, article) for entry, article in result]


async def get_report_detail(
    *, session: AsyncSession, user_id: str, report_id: int
) -> ReportDetail | None:
    report = await get_report(session=session, user_id=user_id, report_id=report_id)
    if report is None:
        return None
    articles = await report_articles(session=session, user_id=user_id, report_id=report_id)
    return ReportDetail(**report.model_dump(), articles=articles)


async def update_report_article(
    *,
    session: AsyncSession,
    user_id: str,
    report_id: int,
    pmid: str,
    update: ReportArticleUpdate,
) -> ReportArticlePublic | None:
    """Star, unstar or annotate an article of the user's report; None when there is none."""
    result = await session.execute(
        _owned_entries(user_id).where(
            ReportArticle.report_id == report_id, Article.pmid == normalize_pmid(pmid)
        )
    )
    row = result.one_or_none()
    if row is None:
        return None
    entry, article = row
    if update.starred is not None:
        entry.starred = update.starred
    if update.notes is not None:
        entry.notes = update.notes
    entry.updated_at = utcnow()
    await session.flush()
    return _entry_public(entry, article)


async def article_reports(*, session: AsyncSession, user_id: str, pmid: str) -> list[ReportEntry]:
    """Where the article appears in the user's reports, newest report first."""
    result = await session.execute(
        select(ReportArticle, Report, ResearchStream)
        .join(Article, ReportArticle.article_id == Article.id)
        .join(Report, ReportArticle.report_id == Report.id)
        .join(ResearchStream, Report.stream_id == ResearchStream.id)
        .where(ResearchStream.user_id == user_id, Article.pmid == normalize_pmid(pmid))
        .order_by(Report.report_date.desc(), Report.id.desc())
    )
    return [
        ReportEntry(
            report_id=report.id,
            report_date=report.report_date,
            stream_id=stream.id,
            stream_name=stream.name,
            relevance_score=entry.relevance_score,
            ranking=entry.ranking,
            category=entry.category,
            starred=entry.starred,
            notes=entry.notes,
        )
        for entry, report, stream in result
    ]


def user_article_ids(user_id: str) -> Select[int]:
    """The ids of the articles in the user's reports (to narrow a search to them)."""
    return (
        select(ReportArticle.article_id)
        .join(Report, ReportArticle.report_id == Report.id)
        .join(ResearchStream, Report.stream_id == ResearchStream.id)
        .where(ResearchStream.user_id == user_id)
    )
