"""First-start data: the real files when the shared folder has them, else the sample; once."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from horizon.domain import (
    SYNTHETIC_SAMPLE_SIZE,
    Article,
    count_articles,
    ensure_articles,
    list_streams,
    startup_hook,
)
from horizon.pubmed import SYNTHETIC_SOURCE, ArticleRecord, PubmedItem
from pagechat.auth import DEMO_EMAIL, DEMO_PASSWORD, ensure_account
from tests.conftest import Account


async def test_an_empty_store_gets_the_real_corpus_when_the_shared_folder_has_it(
    session: AsyncSession, shared_dir: Path, corpus_items: list[PubmedItem]
) -> None:
    counts = await ensure_articles(session=session, shared_dir=shared_dir)

    # Each PMID of the corpus once, however many files carry it.
    unique = len({i.pmid for i in corpus_items if isinstance(i, ArticleRecord)})
    assert counts is not None and counts.inserted == unique
    assert await count_articles(session=session) == unique


async def test_an_empty_store_gets_the_synthetic_sample_without_it(
    session: AsyncSession, tmp_path: Path
) -> None:
    counts = await ensure_articles(session=session, shared_dir=tmp_path)
    also = await ensure_articles(session=session, shared_dir=None)

    assert counts is not None and counts.inserted == SYNTHETIC_SAMPLE_SIZE
    assert also is None
    assert await count_articles(session=session) == SYNTHETIC_SAMPLE_SIZE


async def test_a_store_with_articles_is_left_alone(
    session: AsyncSession, sample_articles: object, shared_dir: Path
) -> None:
    before = await count_articles(session=session)

    assert await ensure_articles(session=session, shared_dir=shared_dir) is None
    assert await count_articles(session=session) == before


async def test_the_start_hook_gives_the_demo_account_its_streams_once(
    sessions: async_sessionmaker[AsyncSession], alice: Account, tmp_path: Path
) -> None:
    async with sessions.begin() as session:
        demo, _ = await ensure_account(session=session, email=DEMO_EMAIL, password=DEMO_PASSWORD)
    hook = startup_hook(tmp_path)

    await hook(sessions)
    await hook(sessions)

    async with sessions() as session:
        streams = await list_streams(session=session, user_id=demo.id)
        assert len(streams) == 3 and all(s.report_count > 0 for s in streams)
        assert await list_streams(session=session, user_id=alice.user.id) == []
        assert await count_articles(session=session) == SYNTHETIC_SAMPLE_SIZE


async def test_the_start_hook_without_a_demo_account_only_fills_the_store(
    sessions: async_sessionmaker[AsyncSession], alice: Account, tmp_path: Path
) -> None:
    await startup_hook(tmp_path)(sessions)

    async with sessions() as session:
        assert await count_articles(session=session) == SYNTHETIC_SAMPLE_SIZE
        assert await list_streams(session=session, user_id=alice.user.id) == []
        sources = set((await session.execute(select(Article.source))).scalars())
        assert sources == {SYNTHETIC_SOURCE}
