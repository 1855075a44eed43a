"""Runs: one user turn, owned by the server, not by the HTTP connection.

A run is an asyncio task writing to an event log. Clients read the log; they
may come and go (a dropped connection does not stop the run). Stop is explicit
and cancels the task, which closes the model request and cancels the tool.
Finished runs stay readable for `retain_seconds`.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..metrics import RunMetrics
from ..protocol import CancelledEvent, ErrorEvent, StreamEvent
from .log import EventLog, MemoryEventLog

__all__ = ["Run", "RunManager", "RunNotFound", "RunObserver"]

logger = logging.getLogger(__name__)

_TERMINAL = frozenset({"complete", "error", "cancelled"})

RunBody = Callable[["Run"], Awaitable[None]]


class RunObserver(Protocol):
    """Sees every event the run emits, as it is emitted (metrics, traces)."""

    def observe(self, event_type: str, event: Any) -> None: ...


class RunNotFound(LookupError):
    """No such run for this user (or it has expired)."""


@dataclass(eq=False)
class Run:
    id: str
    owner_id: str
    conversation_id: str | None
    log: EventLog
    started_at: float = field(default_factory=time.monotonic)
    finished_at: float | None = None
    task: asyncio.Task[None] | None = None
    terminal: str | None = None
    """Type of the terminal event once written: complete, error or cancelled."""
    observers: tuple[RunObserver, ...] = ()
    """Set on the worker that runs the answer: the metrics, and the trace when on."""

    @property
    def done(self) -> bool:
        return self.log.closed

    def emit(self, event: StreamEvent) -> int:
        """Append an event; a terminal one (complete, error, cancelled) closes the log."""
        seq = self.log.append(event)
        for observer in self.observers:
            observer.observe(event.type, event)
        if event.type in _TERMINAL:
            self.terminal = event.type
            self.finished_at = time.monotonic()
            self.log.close()
        return seq

    def cancel(self) -> bool:
        """Ask the run to stop; True if it was still running."""
        if self.task is None or self.task.done():
            return False
        return self.task.cancel()


class RunManager:
    def __init__(self, *, retain_seconds: float = 600.0) -> None:
        self.retain_seconds = retain_seconds
        self._runs: dict[str, Run] = {}

    def start(
        self,
        *,
        owner_id: str,
        conversation_id: str | None,
        body: RunBody,
        run_id: str | None = None,
        observers: Sequence[RunObserver] = (),
    ) -> Run:
        self._sweep()
        run = Run(run_id or uuid.uuid4().hex, owner_id, conversation_id, MemoryEventLog())
        run.observers = (RunMetrics(), *observers)
        self._runs[run.id] = run
        run.task = asyncio.create_task(self._drive(run, body), name=f"run-{run.id}")
        return run

    def get(self, run_id: str, *, owner_id: str) -> Run:
        run = self._runs.get(run_id)
        # Another user's run is indistinguishable from a missing one.
        if run is None or run.owner_id != owner_id:
            raise RunNotFound(run_id)
        return run

    def active(self) -> list[Run]:
        return [r for r in self._runs.values() if not r.done]

    async def shutdown(self) -> None:
        """Cancel every live run and wait for them to write their terminal event."""
        tasks = [r.task for r in self._runs.values() if r.task is not None and not r.task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _drive(self, run: Run, body: RunBody) -> None:
        try:
            await body(run)
        except asyncio.CancelledError:
            if not run.log.closed:
                run.emit(CancelledEvent())
            # Not re-raised: the cancel was ours and the run has ended cleanly.
        except Exception:
            logger.exception("run %s failed", run.id)
            if not run.log.closed:
                run.emit(ErrorEvent(message="The assistant failed unexpectedly.", code="internal"))
        finally:
            if not run.log.closed:
                run.log.close()
            if run.finished_at is None:
                run.finished_at = time.monotonic()

    def _sweep(self) -> None:
        now = time.monotonic()
        expired = [
            rid
            for rid, run in self._runs.items()
            if run.finished_at is not None and now - run.finished_at > self.retain_seconds
        ]
        for rid in expired:
            del self._runs[rid]
