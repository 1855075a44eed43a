"""Runs: one user turn, owned by the server, not by the HTTP connection.

A run is an asyncio task writing to an event log. Clients read the log; they
may come and go (a dropped connection does not stop the run). Stop is explicit
and cancels the task, which closes the model request and cancels the tool.
Finished runs stay readable for `retain_seconds`.

`RunManager` keeps everything in this process. `RedisRunManager` (runs/redis.py)
shares logs, Stop and ownership between workers; routes use only the async
methods here (`find`, `stop`, `stop_conversation`), which both implement.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..events import TERMINAL_KINDS, Cancelled, Error, RunEvent, TextDelta
from ..metrics import RunMetrics
from .log import EventLog, MemoryEventLog

__all__ = [
    "INTERRUPTED_MESSAGE",
    "MOVED",
    "Claim",
    "Draining",
    "Run",
    "RunManager",
    "RunNotFound",
    "RunObserver",
    "RunsUnavailable",
    "TakeoverHook",
    "interrupted_event",
    "moved_event",
]

logger = logging.getLogger(__name__)

RunBody = Callable[["Run"], Awaitable[None]]


class RunObserver(Protocol):
    """Sees every event the run emits, as it is emitted (metrics, traces).

    A text delta is observed as its text (a `str`), not as a `TextDelta`: there is one
    per token, and the run builds no event object for it (`Run.emit_text`).
    """

    def observe(self, event_type: str, event: Any) -> None:
        """See one event (a `RunEvent`, `event_type` its kind) as the run emits it (a text
        delta as its `str`)."""


class RunNotFound(LookupError):
    """No such run for this user (or it has expired)."""


class RunsUnavailable(RuntimeError):
    """Where runs live (Redis) cannot be reached: try again later."""


class Draining(RuntimeError):
    """The server is shutting down and takes no new answers."""


@dataclass(eq=False)
class Run:
    """One running (or recently finished) answer: its owner, its event log and its task."""

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
    failure: Error | None = None
    """Why the server ended the run (shutdown, lost log): its terminal event, not `cancelled`."""
    resume: bytes | None = None
    """How another worker rebuilds and goes on with the answer if this one stops (JSON,
    chat/resume.py); None: it cannot be taken over and ends `interrupted` instead."""
    epoch: int = 0
    """How often the run had been taken over when this worker began driving it (0: it
    started here). Its database writes carry it, so an older owner's are refused."""

    @property
    def done(self) -> bool:
        """Whether the run has ended (its log is closed)."""
        return self.log.closed

    def emit(self, event: RunEvent) -> int:
        """Append an event; a terminal one (complete, error, cancelled, approval_requested)
        closes the log."""
        seq = self.log.add(event)
        kind = event.kind
        # Observers see a text delta as its text, however it was emitted.
        seen = event.text if type(event) is TextDelta else event
        for observer in self.observers:
            observer.observe(kind, seen)
        if kind in TERMINAL_KINDS:
            self.terminal = kind
            self.finished_at = time.monotonic()
            self.log.close()
        return seq

    def emit_text(self, text: str) -> int:
        """Append a text delta: `emit(TextDelta(text=text))` without building it."""
        seq = self.log.append_text(text)
        for observer in self.observers:
            observer.observe("text_delta", text)
        return seq

    def cancel(self, failure: Error | None = None) -> bool:
        """Ask the run to stop; True if it was still running.

        With `failure` the run ends with that error event instead of `cancelled`:
        the server stopped it, not the user.
        """
        if self.task is None or self.task.done() or self.log.closed:
            return False
        if failure is not None and self.failure is None:
            self.failure = failure
        return self.task.cancel()


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """A run this worker has just claimed (or ended): everything its log and metadata hold."""

    run_id: str
    owner_id: str
    conversation_id: str | None
    resume: dict[str, Any]
    """The recipe the run was started with (`Run.resume`): how to rebuild and go on."""
    entries: list[tuple[int, str, bytes]]
    """Every event of the log so far: `(seq, type, json)`, in order."""
    takeovers: int
    """How often the run has been taken over, this claim included: the new owner's epoch."""
    last_write: float


class TakeoverHook(Protocol):
    """The chat layer's side of a takeover (chat/resume.py; runs/takeover.py claims)."""

    async def take_over(self, run: Run, claim: Claim) -> None:
        """The claimed run's body: rebuild the answer from `claim.entries` and go on."""

    async def store_ended(self, claim: Claim, error: Error) -> None:
        """A run ended instead of taken over: store what its followers saw, with `error`."""


INTERRUPTED_MESSAGE = "The server stopped before this answer was finished."


MOVED = "moved"
"""The code of `moved_event`: never sent, never stored."""


def moved_event() -> Error:
    """The `failure` of a run that goes on elsewhere (handed over at shutdown, or taken
    over by another worker): it stops here without a terminal event, and stores nothing
    (runs/takeover.py)."""
    return Error(message="This answer goes on on another server.", code=MOVED)


def interrupted_event() -> Error:
    """The terminal event of a run its server could not finish (shutdown, crash): what
    runs/redis.py writes to a dead owner's log."""
    return Error(message=INTERRUPTED_MESSAGE, code="interrupted")


class RunManager:
    """Runs of this process, in memory: the embedded default, one worker."""

    def __init__(self, *, retain_seconds: float = 600.0, drain_seconds: float = 0.0) -> None:
        self.retain_seconds = retain_seconds
        self.drain_seconds = drain_seconds
        """At shutdown, how long running answers may go on before they are ended."""
        self._runs: dict[str, Run] = {}
        self._swept_at = float("-inf")
        self._swept_size = 0
        self.draining = False
        """Shutting down: no new answers."""
        self._background: set[asyncio.Task[Any]] = set()
        self.takeover: TakeoverHook | None = None
        """Set by the chat service: how a run whose worker stopped goes on elsewhere
        (with Redis; runs/takeover.py). None: such runs end `interrupted`."""

    async def open(self) -> None:
        """At startup, before the first request."""

    def _new_log(self, run_id: str) -> EventLog:
        return MemoryEventLog()

    def start(
        self,
        *,
        owner_id: str,
        conversation_id: str | None,
        body: RunBody,
        run_id: str | None = None,
        observers: Sequence[RunObserver] = (),
        resume: bytes | None = None,
    ) -> Run:
        """Start a run of `body` for `owner_id` and return it at once. `resume`: how
        another worker goes on with it if this one stops (`Run.resume`)."""
        if self.draining:
            raise Draining("The server is restarting; try again in a moment.")
        run_id = run_id or uuid.uuid4().hex
        run = Run(run_id, owner_id, conversation_id, self._new_log(run_id), resume=resume)
        return self.adopt(run, body, observers=observers)

    def adopt(self, run: Run, body: RunBody, *, observers: Sequence[RunObserver] = ()) -> Run:
        """Drive `run`, made elsewhere, with `body`: a new run (`start`), or one taken over
        from a stopped worker with its log so far (runs/redis.py)."""
        self._sweep()
        run.observers = (RunMetrics(), *observers)
        self._runs[run.id] = run
        run.task = asyncio.create_task(self._drive(run, body), name=f"run-{run.id}")
        return run

    def get(self, run_id: str, *, owner_id: str) -> Run:
        """The run `run_id` of `owner_id`; RunNotFound when missing or another user's."""
        run = self._runs.get(run_id)
        # Another user's run is indistinguishable from a missing one.
        if run is None or run.owner_id != owner_id:
            raise RunNotFound(run_id)
        return run

    async def find(self, run_id: str, *, owner_id: str) -> Run:
        """The run, wherever it runs; raises RunNotFound (also for another user's run)."""
        return self.get(run_id, owner_id=owner_id)

    async def stop(self, run: Run) -> bool:
        """Stop: True if the run was still going."""
        return run.cancel()

    def stop_nowait(self, run: Run) -> None:
        """Stop from where nothing can be awaited (a request being torn down)."""
        if run.task is not None:
            run.cancel()
        else:
            task = asyncio.get_running_loop().create_task(self.stop(run))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def stop_conversation(self, conversation_id: str) -> None:
        """Stop every run of a conversation (it is being deleted)."""
        for run in self.active():
            if run.conversation_id == conversation_id:
                await self.stop(run)

    def active(self) -> list[Run]:
        """The runs of this process that have not ended."""
        return [r for r in self._runs.values() if not r.done]

    async def shutdown(self) -> None:
        """Let live runs finish for `drain_seconds`, then end the rest as interrupted.

        Each writes its terminal event (and its answer is stored) before this returns.
        """
        self.draining = True
        tasks = [r.task for r in self._runs.values() if r.task is not None and not r.task.done()]
        if tasks and self.drain_seconds > 0:
            logger.info("%d answers may finish (%.0f s)", len(tasks), self.drain_seconds)
            await asyncio.wait(tasks, timeout=self.drain_seconds)
        for run in self.active():
            run.cancel(interrupted_event())
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        await self._closed()

    async def _closed(self) -> None:
        """After shutdown: release what the manager holds."""

    async def _ended(self, run: Run) -> None:
        """After a run's terminal event: the log is complete wherever it lives."""

    async def _drive(self, run: Run, body: RunBody) -> None:
        try:
            await body(run)
        except asyncio.CancelledError:
            # A run that goes on elsewhere ends here with no terminal event: its readers
            # here stop, and resume from the log on another worker.
            if run.failure is not None and run.failure.code == MOVED:
                # Its metrics and trace end here (outcome error, code moved), unsent.
                for observer in run.observers:
                    observer.observe("error", run.failure)
            elif not run.log.closed:
                run.emit(run.failure or Cancelled())
            # Not re-raised: the cancel was ours and the run has ended cleanly.
        except Exception:
            logger.exception("run %s failed", run.id)
            if not run.log.closed:
                run.emit(Error(message="The assistant failed unexpectedly.", code="internal"))
        finally:
            if not run.log.closed:
                run.log.close()
            if run.finished_at is None:
                run.finished_at = time.monotonic()
            # Shielded: a second cancel must not leave the log half-written elsewhere.
            await asyncio.shield(self._ended(run))

    def _sweep(self) -> None:
        now = time.monotonic()
        # A pass over every run, so not on every start (a burst of starts was quadratic):
        # once a second, or sooner when the runs kept have doubled since the last pass.
        if now - self._swept_at < 1.0 and len(self._runs) < 2 * self._swept_size:
            return
        expired = [
            rid
            for rid, run in self._runs.items()
            if run.finished_at is not None and now - run.finished_at > self.retain_seconds
        ]
        for rid in expired:
            del self._runs[rid]
        self._swept_at = now
        self._swept_size = len(self._runs)
