"""Alice's and Bob's Horizon: the demo streams and reports for each, from the synthetic sample.

Every id a test uses then exists — for one of them — so "not found" is about ownership.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from horizon.domain import list_reports, list_streams, report_articles, seed_demo
from tests.conftest import Account


@dataclass(frozen=True)
class World:
    alice_stream: int
    alice_report: int
    """The newest report of Alice's first stream."""
    alice_pmids: list[str]
    """That report's articles, best ranked first (the first is starred, with notes)."""
    bob_stream: int
    bob_report: int


async def build_world(session: AsyncSession, alice: Account, bob: Account) -> World:
    ids = []
    for account in (alice, bob):
        await seed_demo(session=session, user_id=account.user.id)
        streams = await list_streams(session=session, user_id=account.user.id)
        reports = await list_reports(
            session=session, user_id=account.user.id, stream_id=streams[0].id
        )
        assert reports
        ids.append((streams[0].id, reports[0].id))
    await session.commit()
    entries = await report_articles(session=session, user_id=alice.user.id, report_id=ids[0][1])
    return World(ids[0][0], ids[0][1], [e.pmid for e in entries], ids[1][0], ids[1][1])
