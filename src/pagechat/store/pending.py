"""Turn starts whose write is still under way, and what waits for them.

The chat service starts a turn's run before its user message and placeholder are
stored (`ChatStore.start_turn`), so the first token does not wait for the
database. What must not overtake that write waits here: the turn's own
checkpoints and end, and every read or write of the same user through the store
(a reload right after the start finds the conversation and its running answer).
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["PendingTurns"]


class PendingTurns:
    """The turn starts still being written, by user and by answer, for others to wait on."""

    def __init__(self) -> None:
        self._by_user: dict[str, set[asyncio.Future[Any]]] = {}
        self._by_answer: dict[str, asyncio.Future[Any]] = {}

    def add(self, owner_id: str, answer_id: str, written: asyncio.Future[Any]) -> None:
        """Track the write of `owner_id`'s turn (answer `answer_id`) until it settles."""
        if written.done():
            return
        self._by_user.setdefault(owner_id, set()).add(written)
        self._by_answer[answer_id] = written
        written.add_done_callback(lambda _: self._settled(owner_id, answer_id, written))

    async def user(self, owner_id: str) -> None:
        """Until the user's turn starts are written (or failed)."""
        pending = self._by_user.get(owner_id)
        if pending:
            await asyncio.wait(list(pending))

    async def answer(self, answer_id: str) -> bool:
        """Until the answer's placeholder is written; False if that write failed (and
        the answer was not stored, so there is nothing to update)."""
        written = self._by_answer.get(answer_id)
        if written is None:
            return True
        await asyncio.wait([written])
        return not written.cancelled() and written.exception() is None

    def _settled(self, owner_id: str, answer_id: str, written: asyncio.Future[Any]) -> None:
        if not written.cancelled():
            written.exception()  # its run reports a failure; not "never retrieved"
        self._by_answer.pop(answer_id, None)
        pending = self._by_user.get(owner_id)
        if pending is not None:
            pending.discard(written)
            if not pending:
                del self._by_user[owner_id]
