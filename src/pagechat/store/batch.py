"""Group commit: the turn writes that arrive together share one transaction.

SQLite takes one writer at a time, and through aiosqlite every statement is a
round trip to the connection's thread and back through the event loop. While
hundreds of answers stream, each of those trips waits its turn behind their
callbacks; measured with 150 turns started within a second (bench/load.py),
writing them one transaction each took a turn start 1.3 s at the median and
4.8 s at the worst, all of it spent queuing for the write lock.

So a turn's writes (its beginning, its checkpoints, its end) are queued here,
and one writer takes everything queued so far and writes it in a single
transaction of a few statements (store/turn_rows.py): the cost is per batch, not
per turn, and the batch grows with the load. When a batch fails, each item is
retried alone, so one bad write never fails the others.

Under load the batches are at least `gather` apart (25 ms): writes that arrive one
by one, as the ends of answers started a few milliseconds apart do, would otherwise
be written one transaction each as soon as the last one is done, and a transaction
costs ~2 ms of CPU however little it holds (bench/relay_cpu.py: 134 batches for
150 answers' ends). An idle store writes at once; a write under load waits at most
`gather` more, and none of these writes is on the way to an answer's first token.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from .records import AssistantRecord, TurnIds
from .turn_rows import NewTurn, begin_turns, checkpoint_messages, finish_messages

__all__ = ["GATHER_SECONDS", "WriteBatcher"]

GATHER_SECONDS = 0.025
"""At most one batch per this many seconds while writes keep coming."""

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

Transaction = Callable[[], AbstractAsyncContextManager[AsyncConnection]]
"""Opens a write transaction (and holds the store's write lock while it is open): a
Core connection, as every statement of a batch is Core; an ORM session around it added
a sixth to a batch's CPU."""


class WriteBatcher:
    """Queues turn writes; one task writes each batch in one transaction."""

    def __init__(self, transaction: Transaction, *, gather: float = GATHER_SECONDS) -> None:
        self._transaction = transaction
        self._gather = gather
        self._last_batch = float("-inf")
        self._begins: list[tuple[NewTurn, asyncio.Future[TurnIds]]] = []
        self._checkpoints: dict[str, AssistantRecord] = {}
        self._checkpoint_waiters: list[asyncio.Future[None]] = []
        self._finishes: dict[str, tuple[AssistantRecord, asyncio.Future[None]]] = {}
        self._writer: asyncio.Task[None] | None = None

    def queue_begin(self, turn: NewTurn) -> asyncio.Future[TurnIds]:
        """The turn's write, queued now; the future fails with ConversationNotFound for a
        missing or another user's conversation, or with the database's error."""
        future: asyncio.Future[TurnIds] = asyncio.get_running_loop().create_future()
        self._begins.append((turn, future))
        self._kick()
        return future

    async def begin_turn(self, turn: NewTurn) -> TurnIds:
        """Raises ConversationNotFound for a missing or another user's conversation."""
        future = self.queue_begin(turn)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            # The caller is gone but the write goes on: end its answer, or it would
            # wait as `running` for a run that never starts.
            future.add_done_callback(self._abandon)
            raise

    async def finish(self, message_id: str, record: AssistantRecord) -> None:
        """Queue the end of answer `message_id`; return once it is written."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._finishes[message_id] = (record, future)
        self._kick()
        await asyncio.shield(future)

    async def checkpoint(self, records: Mapping[str, AssistantRecord]) -> None:
        """Queue these running answers' checkpoints; return once they are written."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._checkpoints.update(records)
        self._checkpoint_waiters.append(future)
        self._kick()
        await asyncio.shield(future)

    async def aclose(self) -> None:
        """Waits for the writes already queued."""
        while self._writer is not None:
            await asyncio.shield(self._writer)

    def _abandon(self, future: asyncio.Future[TurnIds]) -> None:
        if future.cancelled() or future.exception() is not None:
            return
        record = AssistantRecord(content="", status="cancelled")
        placeholder = future.result().assistant_message_id
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._finishes[placeholder] = (record, done)
        self._kick()

    def _kick(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(
                self._write(), name="pagechat-write-batch"
            )

    async def _write(self) -> None:
        try:
            loop = asyncio.get_running_loop()
            while self._begins or self._checkpoints or self._finishes:
                wait = self._last_batch + self._gather - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)  # more join while the last batch is recent
                self._last_batch = loop.time()
                begins, self._begins = self._begins, []
                checkpoints, self._checkpoints = self._checkpoints, {}
                waiters, self._checkpoint_waiters = self._checkpoint_waiters, []
                finishes, self._finishes = self._finishes, {}
                await self._batch(begins, checkpoints, finishes)
                for waiter in waiters:
                    _settle(waiter, None)
        finally:
            self._writer = None

    async def _batch(
        self,
        begins: list[tuple[NewTurn, asyncio.Future[TurnIds]]],
        checkpoints: dict[str, AssistantRecord],
        finishes: dict[str, tuple[AssistantRecord, asyncio.Future[None]]],
    ) -> None:
        records = {mid: record for mid, (record, _) in finishes.items()}
        try:
            async with self._transaction() as connection:
                results = await begin_turns(session=connection, turns=[turn for turn, _ in begins])
                # Before the ends: a checkpoint only touches answers still running.
                await checkpoint_messages(session=connection, records=checkpoints)
                await finish_messages(session=connection, records=records)
        except Exception as exc:
            if len(begins) + len(finishes) + bool(checkpoints) > 1:
                logger.warning("a batch of turn writes failed; writing them one by one")
                await self._one_by_one(begins, checkpoints, finishes)
            elif checkpoints:
                # Insurance only (chat/checkpoints.py): logged, never raised.
                logger.warning("saving running answers failed", exc_info=True)
            else:
                for _, begun in begins:
                    _settle(begun, exc)
                for _, finished in finishes.values():
                    _settle(finished, exc)
            return
        for (_, begun), result in zip(begins, results, strict=True):
            _settle(begun, result)
        for _, finished in finishes.values():
            _settle(finished, None)

    async def _one_by_one(
        self,
        begins: list[tuple[NewTurn, asyncio.Future[TurnIds]]],
        checkpoints: dict[str, AssistantRecord],
        finishes: dict[str, tuple[AssistantRecord, asyncio.Future[None]]],
    ) -> None:
        # Batches of one settle their own failure.
        for begin in begins:
            await self._batch([begin], {}, {})
        if checkpoints:
            await self._batch([], checkpoints, {})
        for mid, finish in finishes.items():
            await self._batch([], {}, {mid: finish})


def _settle(future: asyncio.Future[_T], result: _T | Exception) -> None:
    if future.done():
        return
    if isinstance(result, Exception):
        future.set_exception(result)
    else:
        future.set_result(result)
