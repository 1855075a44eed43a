"""Running answers saved as they stream, so a killed server keeps what the user saw.

A graceful stop stores every partial answer (the run's own `finally`), but a
process killed outright (SIGKILL, out of memory, power) runs no code at all;
without checkpoints its placeholder comes back `interrupted` and empty. Writing
on every token would cost a transaction per token, so runs only mark themselves
dirty, and one write per interval saves every dirty answer in a single
statement: the cost is one transaction per interval whatever the number of runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ..store.base import AssistantRecord, ChatStore

__all__ = ["Checkpointer"]

logger = logging.getLogger(__name__)

Snapshot = Callable[[], AssistantRecord]


class Checkpointer:
    """Batches the saving of running answers: at most one write per `interval` seconds.

    Nothing runs while no answer is dirty: a flush is scheduled by the first
    change after the previous one, so an idle server has no timer and no task.
    """

    def __init__(self, store: ChatStore, *, interval: float) -> None:
        self._store = store
        self._interval = interval
        self._dirty: dict[str, Snapshot] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._flushing: asyncio.Task[None] | None = None

    def touch(self, message_id: str, snapshot: Snapshot) -> None:
        """The answer changed; `snapshot` is called when it is saved, for its latest state."""
        self._dirty[message_id] = snapshot
        if self._timer is None and self._flushing is None:
            self._timer = asyncio.get_running_loop().call_later(self._interval, self._due)

    def forget(self, message_id: str) -> None:
        """The answer is finished (and stored in full by its run): no more checkpoints."""
        self._dirty.pop(message_id, None)

    async def aclose(self) -> None:
        """Stop, once the runs have stopped: the timer is cancelled, a write in flight ends."""
        self._dirty.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._flushing is not None:
            await asyncio.shield(self._flushing)

    def _due(self) -> None:
        self._timer = None
        if self._dirty:
            self._flushing = asyncio.get_running_loop().create_task(
                self._flush(), name="pagechat-checkpoint"
            )

    async def _flush(self) -> None:
        dirty, self._dirty = self._dirty, {}
        try:
            await self._store.checkpoint_turns({mid: snap() for mid, snap in dirty.items()})
        except Exception:
            # A checkpoint is insurance; the run goes on and its final write still happens.
            logger.warning(
                "saving the progress of %d running answers failed", len(dirty), exc_info=True
            )
        finally:
            self._flushing = None
            if self._dirty:
                self._timer = asyncio.get_running_loop().call_later(self._interval, self._due)
