"""Pause and resume: a turn waiting before a tool call, and the one run that goes on with it.

Two things pause a turn the same way: a call the user must approve, and a call of a
frontend tool (chat/frontend_tools.py) that the client runs itself. Nothing waits in
memory. When the loop reaches such a call, the turn's whole state (`SavedTurn`,
chat/paused.py) is stored with the request (`pagechat.store.approvals`, kind `approval` or
`frontend_tool`), the answer is stored as `needs_approval`, and the run ends with
`approval_requested`. The decision — the user's, the client's result, or the timeout — is
one conditional UPDATE that exactly one caller wins, on any worker; the winner starts a new
run through the `Resumer` it is given (ChatService.resume_turn), which replays the answer
so far and goes on from the saved state. So a reload, a server restart or another worker
all see the same card, and no run holds a model connection or a quota slot while the user
thinks. This module knows the chat service only as that `Resumer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..agent import AgentApprovalRequested
from ..defaults import APPROVAL_TIMEOUT_SECONDS
from ..events import ApprovalRequested
from ..identity import Principal
from ..protocol import ApprovalPublic
from ..runs import Run
from ..store import approvals as rows
from ..store.approvals import ApprovalDecided, ApprovalNotFound
from ..store.base import TurnIds
from ..store.tables import utcnow
from ..tools.types import ToolConfig, ToolResult
from .frontend_tools import FrontendResultRefused
from .paused import PausedTurn, Resumer, SavedTurn

__all__ = [
    "ApprovalDecided",
    "ApprovalNotFound",
    "ApprovalPending",
    "Approvals",
]

logger = logging.getLogger(__name__)


class ApprovalPending(RuntimeError):
    """A new turn in a conversation whose answer waits for an approval (the caller's mistake)."""


class Approvals:
    """Paused turns (approvals and frontend tool calls): pausing one, the decision or result
    that resumes it, and the timeout that lapses undecided ones."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        *,
        timeout_seconds: float | None = APPROVAL_TIMEOUT_SECONDS,
        sweep_seconds: float = 5.0,
    ) -> None:
        self._sessions = sessions
        self.timeout_seconds = timeout_seconds
        """An undecided request is denied after this long; None: it waits for ever."""
        self._sweep_seconds = sweep_seconds
        self._sweeper: asyncio.Task[None] | None = None

    async def pause(
        self,
        run: Run,
        event: AgentApprovalRequested,
        *,
        user: Principal,
        ids: TurnIds,
        saved: SavedTurn,
        finish: Callable[[], Awaitable[None]],
    ) -> None:
        """Store the paused turn, then (`finish`) the answer as `needs_approval`, then
        tell the client. `saved` is what the turn goes on from (`SavedTurn`)."""
        expires_at = (
            utcnow() + timedelta(seconds=self.timeout_seconds)
            if self.timeout_seconds is not None
            else None
        )
        async with self._sessions.begin() as session:
            approval = await rows.create_approval(
                session=session,
                owner_id=user.id,
                conversation_id=ids.conversation_id,
                message_id=ids.assistant_message_id,
                tool=event.tool,
                tool_use_id=event.tool_use_id,
                input=event.input,
                reason=event.reason,
                expires_at=expires_at,
                state=saved.to_json(),
                kind=event.approval_kind,
            )
        await finish()
        run.emit(
            ApprovalRequested(
                approval_id=approval.id,
                tool=approval.tool,
                input=approval.input,
                reason=approval.reason,
                tool_use_id=event.tool_use_id,
                expires_at=approval.expires_at,
                conversation_id=ids.conversation_id,
                message_id=ids.assistant_message_id,
            )
        )

    async def decide(
        self,
        *,
        user: Principal,
        approval_id: str,
        approved: bool,
        note: str | None,
        resume: Resumer,
    ) -> tuple[ApprovalPublic, Run]:
        """Record the user's decision and go on with the turn.

        Raises ApprovalNotFound (also for another user's) and ApprovalDecided.
        """
        run_id = uuid.uuid4().hex
        async with self._sessions.begin() as session:
            claimed = await rows.claim_decision(
                session=session,
                approval_id=approval_id,
                owner_id=user.id,
                status="approved" if approved else "denied",
                note=note,
                run_id=run_id,
            )
        run = await resume(user, PausedTurn.of(claimed), run_id)
        return claimed.approval, run

    async def answer_frontend_call(
        self,
        *,
        user: Principal,
        conversation_id: str,
        results: Mapping[str, ToolResult],
        tools: Sequence[ToolConfig],
        context: dict[str, Any],
        resume: Resumer,
    ) -> tuple[Run, str]:
        """Resume the turn of `conversation_id` that waits for one of `results` (by tool call
        id), offering `tools` (the client's, declared again with its new run); the run, and
        the id of the call it answered.

        The turn goes on with `context`, the page state the client sends now (its tool may
        have changed it), when it is of the same page; else with the state it paused with.

        Raises FrontendResultRefused: 404 when nothing of this user's thread waits for any
        of them (an unknown call, another user's, or no paused turn), 409 when the call
        waited for has its result already or has lapsed.
        """
        run_id = uuid.uuid4().hex
        async with self._sessions.begin() as session:
            waiting = await rows.pending_frontend_call(
                session=session, owner_id=user.id, conversation_id=conversation_id
            )
            if waiting is None or waiting not in results:
                ids = ", ".join(repr(i[:80]) for i in results)
                raise FrontendResultRefused(
                    f"No tool call {ids} waits for a result in this thread",
                    waiting_for=waiting,
                    status=404,
                )
            result = results[waiting]
            try:
                claimed = await rows.claim_frontend_result(
                    session=session,
                    owner_id=user.id,
                    conversation_id=conversation_id,
                    tool_use_id=waiting,
                    result={"text": result.text, "is_error": result.is_error},
                    run_id=run_id,
                )
            except (ApprovalNotFound, ApprovalDecided):
                raise FrontendResultRefused(
                    f"The tool call {waiting!r} has its result already, or waited too long",
                    waiting_for=None,
                    status=409,
                ) from None
        paused = PausedTurn.of(claimed)
        if paused.saved.context.get("current_page") == context.get("current_page"):
            paused = replace(paused, saved=replace(paused.saved, context=dict(context)))
        return await resume(user, paused, run_id, extra_tools=tools), waiting

    async def waiting_frontend_call(self, *, user: Principal, conversation_id: str) -> str | None:
        """The id of the tool call this user's thread waits for its client to run, if any."""
        async with self._sessions() as session:
            return await rows.pending_frontend_call(
                session=session, owner_id=user.id, conversation_id=conversation_id
            )

    async def has_pending(self, conversation_id: str) -> bool:
        """Whether the conversation has a request still awaiting a decision."""
        async with self._sessions() as session:
            return await rows.has_pending(session=session, conversation_id=conversation_id)

    async def pending_by_message(self, message_ids: list[str]) -> dict[str, ApprovalPublic]:
        """The pending request of each of these messages that has one, for the cards of a page."""
        async with self._sessions() as session:
            return await rows.pending_by_message(session=session, message_ids=message_ids)

    async def expire_due(
        self, resume: Resumer, load_user: Callable[[str], Awaitable[Principal | None]]
    ) -> list[Run]:
        """Deny every request whose time is up and go on with its turn; the runs started."""
        async with self._sessions.begin() as session:
            lapsed = await rows.claim_expired(session=session, now=utcnow())
        runs = []
        for claimed in lapsed:
            user = await load_user(claimed.owner_id)
            if user is None:
                continue
            try:
                runs.append(await resume(user, PausedTurn.of(claimed), claimed.run_id))
            except Exception:
                logger.exception("resuming the lapsed approval %s failed", claimed.approval.id)
        return runs

    def start(
        self, resume: Resumer, load_user: Callable[[str], Awaitable[Principal | None]]
    ) -> None:
        """Sweep for lapsed requests on every worker: the UPDATE lets one win each."""
        if self.timeout_seconds is None or self._sweeper is not None:
            return
        self._sweeper = asyncio.create_task(
            self._sweep(resume, load_user), name="pagechat-approval-sweep"
        )

    async def _sweep(
        self, resume: Resumer, load_user: Callable[[str], Awaitable[Principal | None]]
    ) -> None:
        while True:
            try:
                await self.expire_due(resume, load_user)
            except Exception:
                logger.exception("the approval sweep failed")
            await asyncio.sleep(self._sweep_seconds)

    async def aclose(self) -> None:
        """At shutdown: stop the timeout sweep."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
