"""Tool approval: a turn paused before a call the user must approve, and its resumption.

Nothing waits in memory. When the loop reaches such a call, the turn's whole state is
stored with the request (`pagechat.store.approvals`), the answer is stored as
`needs_approval`, and the run ends with `approval_requested`. The decision — made on any
worker, by the user or by the timeout — is one conditional UPDATE that exactly one caller
wins; the winner starts a new run that replays the answer so far and goes on from the
stored state. So a reload, a server restart or another worker all see the same card, and
no run holds a model connection or a quota slot while the user thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..agent import AgentApprovalRequested, LoopResume, LoopState
from ..defaults import APPROVAL_TIMEOUT_SECONDS
from ..events import (
    ApprovalRequested,
    ApprovalResolved,
    RunEvent,
    TextDelta,
    ToolComplete,
    ToolStart,
)
from ..identity import Principal
from ..pages import ParsedReply
from ..protocol import (
    ApprovalPublic,
    CustomPayload,
    SuggestedAction,
    SuggestedValue,
    ToolHistoryEntry,
    Usage,
)
from ..runs import Run
from ..store import approvals as rows
from ..store.approvals import ApprovalDecided, ApprovalNotFound, ClaimedApproval
from ..store.base import AssistantRecord
from ..store.tables import utcnow
from .frontend_tools import frontend_result

__all__ = [
    "ApprovalDecided",
    "ApprovalNotFound",
    "ApprovalPending",
    "Approvals",
    "PausedTurn",
    "replay_events",
]

logger = logging.getLogger(__name__)


class ApprovalPending(RuntimeError):
    """A new turn in a conversation whose answer waits for an approval (the caller's mistake)."""


class PausedTurn:
    """What a resumed turn starts from: the answer so far and the loop's state."""

    def __init__(self, claimed: ClaimedApproval) -> None:
        state = claimed.state
        self.claimed = claimed
        self.context: dict[str, Any] = dict(state["context"])
        self.message: str = str(state["message"])
        self.content: str = str(state["content"])
        self.tool_history = [ToolHistoryEntry.model_validate(e) for e in state["tool_history"]]
        usage = state["usage"]
        self.usage = Usage(input_tokens=int(usage[0]), output_tokens=int(usage[1]))
        parsed = state.get("parsed")  # absent in requests stored before it was kept
        self.parsed = (
            None
            if not isinstance(parsed, dict)
            else ParsedReply(
                message="",
                payloads=[CustomPayload.model_validate(p) for p in parsed["payloads"]],
                suggested_values=[SuggestedValue.model_validate(v) for v in parsed["values"]],
                suggested_actions=[SuggestedAction.model_validate(a) for a in parsed["actions"]],
                warnings=[str(w) for w in parsed["warnings"]],
            )
        )
        """What the reply parser took out of the text before the pause (payloads, chips)."""
        approval = claimed.approval
        self.resume = LoopResume(
            LoopState.from_json(state["loop"]),
            approval.status == "approved",
            approval.note,
            result=frontend_result(claimed),
        )


Resumer = Callable[[Principal, PausedTurn, str], Awaitable[Run]]
"""Starts the run that goes on with a paused turn (ChatService.resume_turn)."""


class Approvals:
    """Stored approval requests: their decisions, and the timeout that denies undecided ones."""

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
        conversation_id: str,
        message_id: str,
        request_message: str,
        context: dict[str, Any],
        record: AssistantRecord,
        finish: Callable[[AssistantRecord], Awaitable[None]],
        parsed: ParsedReply | None = None,
    ) -> None:
        """Store the paused turn, then the answer as `needs_approval`, then tell the client.

        `parsed` is what the reply parser took out of the answer so far: the resumed turn
        starts from it, so the answer ends with the same payloads as if it had not paused."""
        expires_at = (
            utcnow() + timedelta(seconds=self.timeout_seconds)
            if self.timeout_seconds is not None
            else None
        )
        usage = record.usage or Usage()
        state = {
            "loop": event.state.to_json(),
            "context": context,
            "message": request_message,
            "content": record.content,
            "tool_history": [e.model_dump(mode="json") for e in record.tool_history],
            "usage": [usage.input_tokens, usage.output_tokens],
        }
        if parsed is not None:
            state["parsed"] = {
                "payloads": [p.model_dump(mode="json") for p in parsed.payloads],
                "values": [v.model_dump(mode="json") for v in parsed.suggested_values or []],
                "actions": [a.model_dump(mode="json") for a in parsed.suggested_actions or []],
                "warnings": list(parsed.warnings),
            }
        async with self._sessions.begin() as session:
            approval = await rows.create_approval(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                message_id=message_id,
                tool=event.tool,
                tool_use_id=event.tool_use_id,
                input=event.input,
                reason=event.reason,
                expires_at=expires_at,
                state=state,
                kind=event.approval_kind,
            )
        await finish(record)
        run.emit(
            ApprovalRequested(
                approval_id=approval.id,
                tool=approval.tool,
                input=approval.input,
                reason=approval.reason,
                tool_use_id=event.tool_use_id,
                expires_at=approval.expires_at,
                conversation_id=conversation_id,
                message_id=message_id,
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
        run = await resume(user, PausedTurn(claimed), run_id)
        return claimed.approval, run

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
                runs.append(await resume(user, PausedTurn(claimed), claimed.run_id))
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


def replay_events(paused: PausedTurn) -> list[RunEvent]:
    """The answer so far as events, then the decision: a resumed run's log starts with
    them, so a client following it from the start folds the whole answer."""
    events: list[RunEvent] = []
    content = paused.content
    start = 0
    for index, entry in enumerate(paused.tool_history):
        marker = f"[[tool:{index}]]"
        at = content.find(marker, start)
        if at == -1:
            continue
        if at > start:
            events.append(TextDelta(text=content[start:at]))
        events.append(
            ToolStart(tool=entry.tool_name, input=entry.input, tool_use_id=entry.tool_use_id or "")
        )
        events.append(
            ToolComplete(
                tool=entry.tool_name, index=index, is_error=entry.is_error, output=entry.output
            )
        )
        events.append(TextDelta(text=marker))
        start = at + len(marker)
    if start < len(content):
        events.append(TextDelta(text=content[start:]))
    approval = paused.claimed.approval
    events.append(
        ApprovalResolved(approval_id=approval.id, status=approval.status, note=approval.note)
    )
    return events
