"""The user's decision on a tool call that waits for approval; it resumes the turn."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, status

from ...chat import ChatService
from ...chat.approvals import ApprovalDecided, ApprovalNotFound
from ...protocol import (
    ApprovalDecisionRequest,
    ApprovalDecisionResult,
    ConversationDetail,
    ErrorResponse,
)
from ..deps import ChatServiceDep, CurrentUser

__all__ = ["router", "with_pending_approvals"]

router = APIRouter(prefix="/api/chat", tags=["chat"])

ApprovalId = Annotated[str, Path(max_length=64, pattern=r"^[0-9a-f]+$")]


@router.post(
    "/approvals/{approval_id}",
    responses={
        404: {"model": ErrorResponse, "description": "No such approval"},
        409: {"model": ErrorResponse, "description": "Decided already, or lapsed"},
    },
)
async def decide_approval(
    approval_id: ApprovalId, body: ApprovalDecisionRequest, user: CurrentUser, chat: ChatServiceDep
) -> ApprovalDecisionResult:
    """Approve or deny the call; the turn goes on in the run named in the answer."""
    approvals = chat.approvals
    if approvals is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Approval not found")
    try:
        approval, run = await approvals.decide(
            user=user,
            approval_id=approval_id,
            approved=body.decision == "approved",
            note=body.note,
            resume=chat.resume_turn,
        )
    except ApprovalNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Approval not found") from None
    except ApprovalDecided:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "This request was decided already, or has lapsed."
        ) from None
    return ApprovalDecisionResult(approval=approval, run_id=run.id)


async def with_pending_approvals(
    chat: ChatService, detail: ConversationDetail
) -> ConversationDetail:
    """Each answer that waits for approval with its request, so a reload shows the card."""
    approvals = chat.approvals
    waiting = [m.id for m in detail.messages if m.status == "needs_approval"]
    if approvals is None or not waiting:
        return detail
    pending = await approvals.pending_by_message(waiting)
    messages = [
        m.model_copy(update={"approval": pending[m.id]}) if m.id in pending else m
        for m in detail.messages
    ]
    return detail.model_copy(update={"messages": messages})
