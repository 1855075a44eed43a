"""Running answers of disabled accounts are stopped, by the worker that runs them.

`pagechat users disable` runs in a process of its own and cannot reach a worker's
memory, so each worker looks: about once a second, while it runs answers, it asks the
database which of their owners are disabled (one indexed read of at most a few ids) and
stops their runs the way Stop does (`RunManager.stop`: the answer ends `cancelled` and
is stored). An answer taken over by another worker is that worker's to look at.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..runs import RunManager
from ..store.credentials import disabled_among

__all__ = ["CHECK_SECONDS", "stop_disabled_runs", "stopping_disabled_runs"]

logger = logging.getLogger(__name__)

CHECK_SECONDS = 1.0
"""How often a worker with running answers checks their owners."""


async def stop_disabled_runs(
    *, runs: RunManager, sessions: async_sessionmaker[AsyncSession]
) -> int:
    """Stop this worker's runs whose owner is disabled; how many were stopped."""
    live = [run for run in runs.active() if run.task is not None]
    if not live:
        return 0
    async with sessions() as session:
        disabled = await disabled_among(session=session, user_ids={r.owner_id for r in live})
    stopped = 0
    for run in live:
        if run.owner_id in disabled and await runs.stop(run):
            stopped += 1
    if stopped:
        logger.info("stopped %d answers of disabled accounts", stopped)
    return stopped


async def _stop_disabled_forever(
    runs: RunManager, sessions: async_sessionmaker[AsyncSession]
) -> None:
    while True:
        await asyncio.sleep(CHECK_SECONDS)
        try:
            await stop_disabled_runs(runs=runs, sessions=sessions)
        except SQLAlchemyError:
            logger.warning("could not check for disabled accounts' answers", exc_info=True)


@contextlib.asynccontextmanager
async def stopping_disabled_runs(
    runs: RunManager, sessions: async_sessionmaker[AsyncSession]
) -> AsyncIterator[None]:
    """While inside, disabled accounts' running answers are stopped (the app's lifespan)."""
    task = asyncio.create_task(_stop_disabled_forever(runs, sessions), name="stop-disabled-runs")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
