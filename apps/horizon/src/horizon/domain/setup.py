"""First-start data: articles for an empty store, and the demo account's streams.

`ensure_articles` imports the real PubMed files when the shared folder has them
(`<shared>/data/pubmed/corpus`, read in place), else the synthetic sample; it
does nothing when the store has articles. `ensure_demo_data` does that and then
seeds the demo account (if it exists); `startup_hook` makes it an app start hook.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import DEMO_EMAIL
from pagechat.store import User

from ..pubmed import PubmedItem, iter_corpus_items, synthetic_corpus
from .articles import ImportCounts, count_articles, import_articles
from .demo import seed_demo

__all__ = [
    "SYNTHETIC_SAMPLE_SIZE",
    "corpus_dir",
    "ensure_articles",
    "ensure_demo_data",
    "find_demo_user",
    "startup_hook",
]

logger = logging.getLogger(__name__)

SYNTHETIC_SAMPLE_SIZE = 300

StartupHook = Callable[[async_sessionmaker[AsyncSession]], Awaitable[None]]


def corpus_dir(shared_dir: Path) -> Path:
    """Where the real PubMed files are in the shared folder."""
    return shared_dir / "data" / "pubmed" / "corpus"


def _read_corpus(folder: Path) -> list[PubmedItem]:
    return list(iter_corpus_items(folder))


async def ensure_articles(*, session: AsyncSession, shared_dir: Path | None) -> ImportCounts | None:
    """Fill an empty article store; None (and nothing done) when it has articles already."""
    if await count_articles(session=session) > 0:
        return None
    folder = corpus_dir(shared_dir) if shared_dir is not None else None
    items: list[PubmedItem]
    if folder is not None and folder.is_dir():
        # Parsing is synchronous work: keep it off the event loop.
        items = await asyncio.to_thread(_read_corpus, folder)
        what = f"PubMed files in {folder}"
    else:
        items = list(synthetic_corpus(SYNTHETIC_SAMPLE_SIZE))
        what = "the synthetic sample"
    counts = await import_articles(session=session, records=items)
    logger.info("imported %d articles from %s", counts.inserted, what)
    return counts


async def find_demo_user(*, session: AsyncSession) -> User | None:
    return await session.scalar(select(User).where(User.email == DEMO_EMAIL))


async def ensure_demo_data(
    *, sessions: async_sessionmaker[AsyncSession], shared_dir: Path | None
) -> None:
    """Articles for an empty store, then the demo account's streams (once)."""
    async with sessions() as session:
        await ensure_articles(session=session, shared_dir=shared_dir)
        await session.commit()
        user = await find_demo_user(session=session)
        if user is not None and await seed_demo(session=session, user_id=user.id):
            logger.info("created the demo streams and reports for %s", DEMO_EMAIL)
        await session.commit()


def startup_hook(shared_dir: Path | None) -> StartupHook:
    """An app start hook (run after migrations) calling `ensure_demo_data`."""

    async def ensure_horizon_data(sessions: async_sessionmaker[AsyncSession]) -> None:
        await ensure_demo_data(sessions=sessions, shared_dir=shared_dir)

    return ensure_horizon_data
