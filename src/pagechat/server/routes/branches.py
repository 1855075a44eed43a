"""Conversation control on a message: regenerate an answer, edit and resend a question,
continue a stopped answer (each a run streamed like any turn), pick the branch shown,
and give an answer thumbs up or down."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request, status

from ...protocol import (
    BranchSelectRequest,
    BranchTurnRequest,
    ConversationDetail,
    EditRequest,
    ErrorResponse,
    FeedbackRequest,
    MessagePublic,
)
from ...runs import Run
from ...store.base import (
    AnswerRunning,
    BranchKind,
    ConversationNotFound,
    MessageNotFound,
    NotAnAnswer,
    NotBranchable,
)
from ..deps import ChatServiceDep, CurrentUser
from ..sse import STREAM_RESPONSE, EventStream
from .chat import stream_run
from .conversations import (
    DEFAULT_MESSAGES_PAGE,
    MAX_MESSAGES_PAGE,
    ConversationId,
    MessageId,
    StoreDep,
    message_visible_to,
    not_found,
    visible_to,
)

__all__ = ["router"]

router = APIRouter(
    prefix="/api/conversations/{conversation_id}/messages/{message_id}",
    tags=["conversations"],
    responses={404: {"model": ErrorResponse, "description": "Conversation or message not found"}},
)

_STREAM_RESPONSES: dict[int | str, dict[str, object]] = {
    **STREAM_RESPONSE,
    409: {"model": ErrorResponse, "description": "An answer is running, or nothing to do here"},
}


def _message_not_found() -> HTTPException:
    return HTTPException(status.HTTP_404_NOT_FOUND, "Message not found")


async def _start(
    chat: ChatServiceDep,
    user: CurrentUser,
    conversation_id: str,
    message_id: str,
    kind: BranchKind,
    context: dict[str, object],
    message: str | None = None,
    attachments: list[str] | None = None,
) -> Run:
    try:
        return await chat.start_branch(
            user=user,
            conversation_id=conversation_id,
            message_id=message_id,
            kind=kind,
            context=dict(context),
            message=message,
            attachments=attachments,
        )
    except ConversationNotFound:
        raise not_found() from None
    except MessageNotFound:
        raise _message_not_found() from None
    except AnswerRunning:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "An answer is still running in this conversation; stop it or wait for it first.",
        ) from None
    except NotBranchable as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None


@router.post("/regenerate", response_class=EventStream, responses=_STREAM_RESPONSES)
async def regenerate(
    conversation_id: ConversationId,
    message_id: MessageId,
    body: BranchTurnRequest,
    user: CurrentUser,
    chat: ChatServiceDep,
    request: Request,
) -> EventStream:
    """A new answer to the same question, beside this one; streamed like a turn."""
    run = await _start(chat, user, conversation_id, message_id, "regenerate", body.context)
    return stream_run(chat.runs, run, 0, request)


@router.post("/edit", response_class=EventStream, responses=_STREAM_RESPONSES)
async def edit(
    conversation_id: ConversationId,
    message_id: MessageId,
    body: EditRequest,
    user: CurrentUser,
    chat: ChatServiceDep,
    request: Request,
) -> EventStream:
    """The question as edited, beside this one, and its answer; streamed like a turn."""
    run = await _start(
        chat,
        user,
        conversation_id,
        message_id,
        "edit",
        body.context,
        message=body.message,
        attachments=body.attachments,
    )
    return stream_run(chat.runs, run, 0, request)


@router.post("/continue", response_class=EventStream, responses=_STREAM_RESPONSES)
async def continue_answer(
    conversation_id: ConversationId,
    message_id: MessageId,
    body: BranchTurnRequest,
    user: CurrentUser,
    chat: ChatServiceDep,
    request: Request,
) -> EventStream:
    """Go on with an answer that was stopped or cut off: the new text is appended to it."""
    run = await _start(chat, user, conversation_id, message_id, "continue", body.context)
    return stream_run(chat.runs, run, 0, request)


@router.put("/branch")
async def select_branch(
    conversation_id: ConversationId,
    message_id: MessageId,
    body: BranchSelectRequest,
    user: CurrentUser,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=MAX_MESSAGES_PAGE)] = DEFAULT_MESSAGES_PAGE,
) -> ConversationDetail:
    """Show the sibling of this message at `position`; the conversation as it now reads
    (its newest page), kept for the next turn and the next reload."""
    try:
        await store.select_branch(
            user=user,
            conversation_id=conversation_id,
            message_id=message_id,
            position=body.position,
        )
        detail = await store.get_conversation(
            user=user, conversation_id=conversation_id, limit=limit
        )
    except ConversationNotFound:
        raise not_found() from None
    except MessageNotFound:
        raise _message_not_found() from None
    return visible_to(user, detail)


@router.put(
    "/feedback",
    responses={409: {"model": ErrorResponse, "description": "Not a finished answer"}},
)
async def set_feedback(
    conversation_id: ConversationId,
    message_id: MessageId,
    body: FeedbackRequest,
    user: CurrentUser,
    store: StoreDep,
) -> MessagePublic:
    """Thumbs up or down on an answer, with an optional comment; sent again, it replaces
    the earlier one. Only its author ever sees it (and admins, in the export)."""
    comment = body.comment.strip() if body.comment else None
    try:
        message = await store.set_feedback(
            user=user,
            conversation_id=conversation_id,
            message_id=message_id,
            rating=body.rating,
            comment=comment or None,
        )
    except ConversationNotFound:
        raise not_found() from None
    except MessageNotFound:
        raise _message_not_found() from None
    except NotAnAnswer:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "Feedback is given on finished answers only"
        ) from None
    return message_visible_to(user, message)
