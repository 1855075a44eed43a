"""The demo account's data: built from the store's articles, the same every time, once."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from horizon.domain import (
    DEMO_REPORT_DATES,
    DEMO_STREAMS,
    ImportCounts,
    get_report_detail,
    list_reports,
    list_streams,
    seed_demo,
)
from tests.conftest import Account


async def _everything(session: AsyncSession, user_id: str) -> list[dict[str, Any]]:
    """The user's streams with their reports and articles, without ids and times."""
    found = []
    for stream in await list_streams(session=session, user_id=user_id):
        reports = []
        for report in (
            await list_reports(session=session, user_id=user_id, stream_id=stream.id) or []
        ):
            detail = await get_report_detail(session=session, user_id=user_id, report_id=report.id)
            assert detail is not None
            reports.append(
                detail.model_dump(exclude={"id", "stream_id", "created_at", "articles"})
                | {"articles": [a.model_dump(exclude={"report_id"}) for a in detail.articles]}
            )
        found.append(
            stream.model_dump(exclude={"id", "created_at", "updated_at"}) | {"reports": reports}
        )
    return found


async def test_the_demo_streams_get_reports_from_the_real_corpus(
    session: AsyncSession, alice: Account, corpus_articles: ImportCounts
) -> None:
    assert await seed_demo(session=session, user_id=alice.user.id)
    await session.commit()

    streams = await _everything(session, alice.user.id)

    assert [s["name"] for s in streams] == [s.name for s in DEMO_STREAMS]
    for stream in streams:
        categories = {c["name"] for c in stream["presentation_config"]["categories"]}
        assert [r["report_date"] for r in stream["reports"]] == list(DEMO_REPORT_DATES)
        for number, report in enumerate(stream["reports"]):
            articles = report["articles"]
            assert len(articles) == report["article_count"] == 8
            assert [a["ranking"] for a in articles] == list(range(1, 9))
            scores = [a["relevance_score"] for a in articles]
            assert scores == sorted(scores, reverse=True)
            assert all(0 < s <= 1 for s in scores)
            assert all(a["category"] in categories and a["rationale"] for a in articles)
            assert report["key_highlights"][0].startswith(articles[0]["title"][:40])
            assert f"{len(articles)} articles for {stream['name']}" in report["thematic_summary"]
            assert [a["starred"] for a in articles] == [number == 0] + [False] * 7
    crispr = streams[0]["reports"][0]["articles"][0]
    assert "CRISPR" in crispr["title"]


async def test_the_same_articles_give_the_same_demo_data(
    session: AsyncSession, alice: Account, bob: Account, corpus_articles: ImportCounts
) -> None:
    await seed_demo(session=session, user_id=alice.user.id)
    await seed_demo(session=session, user_id=bob.user.id)
    await session.commit()

    assert await _everything(session, alice.user.id) == await _everything(session, bob.user.id)


async def test_seeding_twice_changes_nothing(
    session: AsyncSession, alice: Account, sample_articles: object
) -> None:
    assert await seed_demo(session=session, user_id=alice.user.id)
    await session.commit()
    before = await _everything(session, alice.user.id)

    assert not await seed_demo(session=session, user_id=alice.user.id)
    await session.commit()

    assert await _everything(session, alice.user.id) == before
    assert len(before) == len(DEMO_STREAMS)


async def test_without_articles_the_streams_have_no_reports(
    session: AsyncSession, alice: Account
) -> None:
    await seed_demo(session=session, user_id=alice.user.id)
    await session.commit()

    streams = await list_streams(session=session, user_id=alice.user.id)

    assert [(s.name, s.report_count) for s in streams] == [(s.name, 0) for s in DEMO_STREAMS]
