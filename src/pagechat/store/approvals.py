"""Tool calls waiting for the user's approval: their own table, and its queries.

A paused turn keeps everything needed to go on in `state` (JSON), so any worker — or a
server started after a crash — can resume it. Deciding is one conditional UPDATE, so
of two workers (or a click and the timeout) exactly one wins.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from ..protocol import ApprovalKind, ApprovalPublic, ApprovalStatus
from .tables import Base, Message, utcnow

__all__ = [
    "Approval",
    "ApprovalDecided",
    "ApprovalNotFound",
    "ClaimedApproval",
    "claim_decision",
    "claim_expired",
    "claim_frontend_result",
    "create_approval",
    "has_pending",
    "pending_by_message",
    "pending_frontend_call",
]


"""What the paused turn waits for: the user's decision, or an AG-UI client's tool result."""


class ApprovalNotFound(LookupError):
    """No such approval for this user (another user's is reported the same way)."""


class ApprovalDecided(ValueError):
    """The approval was decided already (or has lapsed): a second decision is refused."""


class Approval(Base):
    """A stored approval request: the paused call, the loop's state, and the decision."""

    __tablename__ = "approvals"
    __table_args__ = (
        Index("ix_approvals_message", "message_id"),
        Index("ix_approvals_status_expires", "status", "expires_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    conversation_id: Mapped[str] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    message_id: Mapped[str] = mapped_column(String(32))
    """The paused assistant message (status `needs_approval` while pending)."""
    tool: Mapped[str] = mapped_column(String(200))
    tool_use_id: Mapped[str] = mapped_column(String(200))
    input: Mapped[dict[str, Any]] = mapped_column(default=dict)
    reason: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(16), default="pending")
    note: Mapped[str | None] = mapped_column(Text)
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    """What resuming needs: the loop's state, the turn so far, the page context."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column()
    decided_at: Mapped[datetime | None] = mapped_column()
    kind: Mapped[str] = mapped_column(String(16), default="approval", server_default="approval")
    """`approval`, or `frontend_tool`: the call waits for the AG-UI client to run it."""
    result: Mapped[dict[str, Any] | None] = mapped_column()
    """A frontend tool's result as the client sent it: `{text, is_error}`."""


def _public(row: Approval) -> ApprovalPublic:
    return ApprovalPublic(
        id=row.id,
        kind="frontend_tool" if row.kind == "frontend_tool" else "approval",
        tool=row.tool,
        tool_use_id=row.tool_use_id,
        input=row.input,
        reason=row.reason,
        status=row.status,
        note=row.note,
        expires_at=row.expires_at,
    )


@dataclass(frozen=True, slots=True)
class ClaimedApproval:
    """A decision this caller won: it resumes the turn."""

    approval: ApprovalPublic
    owner_id: str
    conversation_id: str
    message_id: str
    tool_use_id: str
    state: dict[str, Any]
    run_id: str
    """The run that goes on with the turn (already the answer's `run_id`)."""
    kind: ApprovalKind = "approval"
    result: dict[str, Any] | None = None


def _claimed(row: Approval, run_id: str) -> ClaimedApproval:
    return ClaimedApproval(
        approval=_public(row),
        owner_id=row.owner_id,
        conversation_id=row.conversation_id,
        message_id=row.message_id,
        tool_use_id=row.tool_use_id,
        state=row.state,
        run_id=run_id,
        kind="frontend_tool" if row.kind == "frontend_tool" else "approval",
        result=row.result,
    )


async def create_approval(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    message_id: str,
    tool: str,
    tool_use_id: str,
    input: dict[str, Any],
    reason: str,
    expires_at: datetime | None,
    state: dict[str, Any],
    kind: ApprovalKind = "approval",
) -> ApprovalPublic:
    """Store a pending request for a call of `tool`, with the loop's state to resume from."""
    row = Approval(
        kind=kind,
        id=uuid.uuid4().hex,
        owner_id=owner_id,
        conversation_id=conversation_id,
        message_id=message_id,
        tool=tool,
        tool_use_id=tool_use_id,
        input=input,
        reason=reason,
        status="pending",
        state=state,
        expires_at=expires_at,
    )
    session.add(row)
    await session.flush()
    return _public(row)


async def pending_by_message(
    *, session: AsyncSession, message_ids: Collection[str]
) -> dict[str, ApprovalPublic]:
    """The pending approval of each of these messages that has one."""
    if not message_ids:
        return {}
    rows = await session.scalars(
        select(Approval).where(
            Approval.message_id.in_(list(message_ids)), Approval.status == "pending"
        )
    )
    return {row.message_id: _public(row) for row in rows}


async def has_pending(*, session: AsyncSession, conversation_id: str) -> bool:
    """Whether the conversation has a request still awaiting a decision."""
    found = await session.scalar(
        select(Approval.id)
        .where(Approval.conversation_id == conversation_id, Approval.status == "pending")
        .limit(1)
    )
    return found is not None


async def _claim(
    session: AsyncSession,
    row: Approval,
    *,
    status: ApprovalStatus,
    note: str | None,
    run_id: str,
    result: dict[str, Any] | None = None,
) -> ClaimedApproval | None:
    """Decide `row` if it is still pending and its answer still waits; None if it lost."""
    decided = await session.execute(
        update(Approval)
        .where(Approval.id == row.id, Approval.status == "pending")
        .values(status=status, note=note, decided_at=utcnow(), result=result)
        .execution_options(synchronize_session=False)
    )
    if decided.rowcount != 1:  # type: ignore[attr-defined]
        return None
    # The answer goes on in `run_id`: a reload follows that run, a crash marks it interrupted.
    resumed = await session.execute(
        update(Message)
        .where(Message.id == row.message_id, Message.status == "needs_approval")
        .values(status="running", run_id=run_id, run_epoch=0)
        .execution_options(synchronize_session=False)
    )
    if resumed.rowcount != 1:  # type: ignore[attr-defined]
        return None
    await session.refresh(row)
    return _claimed(row, run_id)


async def claim_decision(
    *,
    session: AsyncSession,
    approval_id: str,
    owner_id: str,
    status: ApprovalStatus,
    note: str | None,
    run_id: str,
) -> ClaimedApproval:
    """Record the user's decision; raises ApprovalNotFound, or ApprovalDecided when it
    was decided (or lapsed) already. The caller commits, then resumes the turn."""
    row = await session.scalar(
        select(Approval).where(
            Approval.id == approval_id,
            Approval.owner_id == owner_id,
            # A frontend tool's call is answered by its client's result, never decided here.
            Approval.kind == "approval",
        )
    )
    if row is None:
        raise ApprovalNotFound(approval_id)
    claimed = await _claim(session, row, status=status, note=note, run_id=run_id)
    if claimed is None:
        await session.rollback()
        raise ApprovalDecided(approval_id)
    return claimed


async def claim_expired(
    *, session: AsyncSession, now: datetime, limit: int = 50
) -> list[ClaimedApproval]:
    """Lapse the pending approvals whose time is up; those this caller won."""
    rows = list(
        await session.scalars(
            select(Approval)
            .where(Approval.status == "pending", Approval.expires_at < now)
            .order_by(Approval.expires_at)
            .limit(limit)
        )
    )
    won = []
    for row in rows:
        claimed = await _claim(
            session,
            row,
            status="expired",
            note="Nobody approved it in time.",
            run_id=uuid.uuid4().hex,
        )
        if claimed is not None:
            won.append(claimed)
    return won


async def pending_frontend_call(
    *, session: AsyncSession, owner_id: str, conversation_id: str
) -> str | None:
    """The tool call id a paused turn of this conversation waits for its client to run."""
    return await session.scalar(
        select(Approval.tool_use_id)
        .where(
            Approval.owner_id == owner_id,
            Approval.conversation_id == conversation_id,
            Approval.kind == "frontend_tool",
            Approval.status == "pending",
        )
        .limit(1)
    )


async def claim_frontend_result(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    tool_use_id: str,
    result: dict[str, Any],
    run_id: str,
) -> ClaimedApproval:
    """Record the client's result of a frontend tool call (status `approved`: it ran);
    raises ApprovalNotFound (no such call of this user's conversation) or ApprovalDecided
    (answered already, or lapsed). The caller commits, then resumes the turn."""
    row = await session.scalar(
        select(Approval).where(
            Approval.owner_id == owner_id,
            Approval.conversation_id == conversation_id,
            Approval.tool_use_id == tool_use_id,
            Approval.kind == "frontend_tool",
        )
    )
    if row is None:
        raise ApprovalNotFound(tool_use_id)
    claimed = await _claim(
        session,
        row,
        status="approved",
        note="The client returned the result.",
        run_id=run_id,
        result=result,
    )
    if claimed is None:
        await session.rollback()
        raise ApprovalDecided(tool_use_id)
    return claimed
