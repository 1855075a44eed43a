"""A turn whose first write is still under way while its run streams.

`ChatStore.start_turn` queues the user message and the `running` placeholder and
the run starts at once (the first token no longer waits for the database). The
run waits for that write before anything else touching storage (a tool, a pause
for approval, its end: `TurnRunner._on_event`); a write that fails stored nothing,
and the run ends at once with an `error` event saying so, its model request closed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..events import Error
from ..runs import Run
from ..store.base import ConversationNotFound

__all__ = ["end_if_unsaved", "unsaved", "wait_stored"]

logger = logging.getLogger(__name__)

UNSAVED_MESSAGE = "Your message could not be saved, so the answer was stopped. Try again."
GONE_MESSAGE = "This conversation no longer exists."


def unsaved(stored: asyncio.Future[Any] | None) -> bool:
    """The write is over and stored nothing."""
    return (
        stored is not None
        and stored.done()
        and (stored.cancelled() or stored.exception() is not None)
    )


def _failure(stored: asyncio.Future[Any]) -> Error:
    exc = None if stored.cancelled() else stored.exception()
    if isinstance(exc, ConversationNotFound):
        return Error(message=GONE_MESSAGE, code="not_found")
    logger.error("a turn's message could not be stored", exc_info=exc)
    return Error(message=UNSAVED_MESSAGE, code="unavailable")


def end_if_unsaved(run: Run, stored: asyncio.Future[Any]) -> None:
    """From inside the run's task: a failed write ends the run with its error."""

    def check(done: asyncio.Future[Any]) -> None:
        if unsaved(done):
            run.cancel(_failure(done))

    stored.add_done_callback(check)


async def wait_stored(run: Run, stored: asyncio.Future[Any] | None) -> None:
    """Until the turn is stored; a failed write ends the run (CancelledError, with the
    run's `failure` set to the error its user sees)."""
    if stored is None or (stored.done() and not unsaved(stored)):
        return
    await asyncio.wait([stored])
    if unsaved(stored):
        if run.failure is None:
            run.failure = _failure(stored)
        raise asyncio.CancelledError
