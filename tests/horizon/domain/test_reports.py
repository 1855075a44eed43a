"""Reports and their articles: ranked, starred and annotated by their owner only."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from horizon.domain import (
    NewReportArticle,
    Report,
    ReportArticleUpdate,
    StreamCreate,
    article_reports,
    create_report,
    create_stream,
    get_articles,
    get_report,
    get_report_detail,
    get_stream,
    list_reports,
    report_articles,
    search_articles,
    update_report_article,
    user_article_ids,
)
from horizon.pubmed import ArticleRecord
from tests.conftest import Account


async def _report(
    session: AsyncSession, owner: Account, pmids: list[str], day: date = date(2025, 3, 3)
) -> Report:
    stream = await create_stream(
        session=session, user_id=owner.user.id, stream_in=StreamCreate(name="Oncology")
    )
    articles = await get_articles(session=session, pmids=pmids)
    report = await create_report(
        session=session,
        stream=stream,
        report_date=day,
        key_highlights=["One", "Two"],
        thematic_summary="Mostly trials.",
        articles=[
            NewReportArticle(a, round(0.9 - n / 10, 2), f"Reason {n}", n + 1, "Trials")
            for n, a in enumerate(articles)
        ],
    )
    await session.commit()
    return report


@pytest.fixture
def pmids(sample_articles: list[ArticleRecord]) -> list[str]:
    return [r.pmid for r in sample_articles[:4]]


async def test_a_report_lists_its_articles_best_ranked_first(
    session: AsyncSession, alice: Account, pmids: list[str]
) -> None:
    report = await _report(session, alice, list(reversed(pmids)))

    detail = await get_report_detail(session=session, user_id=alice.user.id, report_id=report.id)

    assert detail is not None
    assert (detail.stream_name, detail.article_count) == ("Oncology", 4)
    assert detail.key_highlights == ["One", "Two"]
    assert [a.ranking for a in detail.articles] == [1, 2, 3, 4]
    assert [a.pmid for a in detail.articles] == list(reversed(pmids))
    assert detail.articles[0].relevance_score == 0.9
    assert detail.articles[0].rationale == "Reason 0"


async def test_another_users_report_is_not_found(
    session: AsyncSession, alice: Account, bob: Account, pmids: list[str]
) -> None:
    report = await _report(session, alice, pmids)

    assert await get_report(session=session, user_id=bob.user.id, report_id=report.id) is None
    assert (
        await get_report_detail(session=session, user_id=bob.user.id, report_id=report.id) is None
    )
    assert await report_articles(session=session, user_id=bob.user.id, report_id=report.id) == []


async def test_only_the_owner_can_star_or_annotate(
    session: AsyncSession, alice: Account, bob: Account, pmids: list[str]
) -> None:
    report = await _report(session, alice, pmids)
    star = ReportArticleUpdate(starred=True, notes="Read this.")

    by_bob = await update_report_article(
        session=session, user_id=bob.user.id, report_id=report.id, pmid=pmids[1], update=star
    )
    by_alice = await update_report_article(
        session=session, user_id=alice.user.id, report_id=report.id, pmid=pmids[1], update=star
    )
    await session.commit()

    assert by_bob is None
    assert by_alice is not None and (by_alice.starred, by_alice.notes) == (True, "Read this.")
    [entry] = await article_reports(session=session, user_id=alice.user.id, pmid=pmids[1])
    assert (entry.starred, entry.notes, entry.stream_name) == (True, "Read this.", "Oncology")
    assert await article_reports(session=session, user_id=bob.user.id, pmid=pmids[1]) == []


async def test_unstarring_leaves_the_notes(
    session: AsyncSession, alice: Account, pmids: list[str]
) -> None:
    report = await _report(session, alice, pmids)
    uid, rid = alice.user.id, report.id
    await update_report_article(
        session=session, user_id=uid, report_id=rid, pmid=pmids[0],
        update=ReportArticleUpdate(starred=True, notes="Keep"),
    )  # fmt: skip
    updated = await update_report_article(
        session=session, user_id=uid, report_id=rid, pmid=pmids[0],
        update=ReportArticleUpdate(starred=False),
    )  # fmt: skip

    assert updated is not None and (updated.starred, updated.notes) == (False, "Keep")


async def test_an_article_not_in_the_report_cannot_be_starred(
    session: AsyncSession, alice: Account, pmids: list[str]
) -> None:
    report = await _report(session, alice, pmids[:2])

    missing = await update_report_article(
        session=session,
        user_id=alice.user.id,
        report_id=report.id,
        pmid=pmids[3],
        update=ReportArticleUpdate(starred=True),
    )

    assert missing is None


async def test_reports_of_a_stream_come_newest_first(
    session: AsyncSession, alice: Account, pmids: list[str]
) -> None:
    older = await _report(session, alice, pmids, date(2025, 1, 1))
    stream = await get_stream(session=session, user_id=alice.user.id, stream_id=older.stream_id)
    assert stream is not None
    await create_report(
        session=session,
        stream=stream,
        report_date=date(2025, 2, 1),
        key_highlights=[],
        thematic_summary="",
    )
    await session.commit()

    reports = await list_reports(session=session, user_id=alice.user.id, stream_id=stream.id)

    assert reports is not None
    assert [(r.report_date, r.article_count) for r in reports] == [
        (date(2025, 2, 1), 0),
        (date(2025, 1, 1), 4),
    ]


async def test_a_search_can_be_narrowed_to_a_users_reports(
    session: AsyncSession, alice: Account, bob: Account, sample_articles: list[ArticleRecord]
) -> None:
    oncology = [r.pmid for r in sample_articles if "(oncology)" in r.abstract]
    await _report(session, alice, oncology[:3])

    everywhere = await search_articles(session=session, query="oncology", limit=50)
    alices = await search_articles(
        session=session, query="oncology", limit=50, within=user_article_ids(alice.user.id)
    )
    bobs = await search_articles(
        session=session, query="oncology", limit=50, within=user_article_ids(bob.user.id)
    )

    assert len(everywhere) > 3
    assert sorted(m.article.pmid for m in alices) == sorted(oncology[:3])
    assert bobs == []
