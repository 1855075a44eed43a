"""Conversation history: list, read, rename, delete, and the user's decision on an answer's
card — each user sees only their own."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request, Response, status

from ...attachments import Attachments
from ...identity import Principal
from ...protocol import (
    ConversationDetail,
    ConversationList,
    ConversationPublic,
    ConversationUpdate,
    ErrorResponse,
    MessagePublic,
    PayloadDecisionRequest,
)
from ...store.base import (
    ChatStore,
    ConversationNotFound,
    InvalidCursor,
    MessageNotFound,
    NoPayload,
)
from ..deps import CurrentUser, RunsDep
from .approvals import with_pending_approvals

__all__ = [
    "DEFAULT_MESSAGES_PAGE",
    "MAX_MESSAGES_PAGE",
    "ConversationId",
    "MessageId",
    "StoreDep",
    "message_visible_to",
    "not_found",
    "router",
    "visible_to",
]

router = APIRouter(
    prefix="/api/conversations",
    tags=["conversations"],
    responses={404: {"model": ErrorResponse, "description": "Conversation not found"}},
)

MAX_PAGE = 100
DEFAULT_MESSAGES_PAGE = 50
MAX_MESSAGES_PAGE = 200
"""A read of a conversation is bounded however long it grows: older messages come in pages."""
MAX_OFFSET = 2**63 - 1
"""The largest offset SQL databases take (a signed 64-bit integer)."""

ConversationId = Annotated[str, Path(pattern=r"^[^\x00]*$")]
"""No NUL: PostgreSQL text cannot hold one, so no id has one."""
MessageId = Annotated[str, Path(pattern=r"^[^\x00]*$")]


async def _store(request: Request) -> ChatStore:
    store: ChatStore = request.app.state.chat.store
    return store


StoreDep = Annotated[ChatStore, Depends(_store)]


def not_found() -> HTTPException:
    """The 404 for a conversation that is missing or not the user's."""
    return HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found")


def message_visible_to(user: Principal, message: MessagePublic) -> MessagePublic:
    """Admin-only fields stripped for everyone else."""
    return message if user.is_admin else message.model_copy(update={"context_audit": None})


def visible_to(user: Principal, detail: ConversationDetail) -> ConversationDetail:
    """`detail` without the fields only admins may see, unless `user` is one."""
    if user.is_admin:
        return detail
    messages = [message_visible_to(user, m) for m in detail.messages]
    return detail.model_copy(update={"messages": messages})


@router.get("")
async def list_conversations(
    user: CurrentUser,
    store: StoreDep,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 20,
) -> ConversationList:
    """The user's conversations, most recently active first."""
    return await store.list_conversations(user=user, offset=offset, limit=limit)


@router.get("/{conversation_id}")
async def get_conversation(
    conversation_id: ConversationId,
    user: CurrentUser,
    store: StoreDep,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=MAX_MESSAGES_PAGE)] = DEFAULT_MESSAGES_PAGE,
    before: Annotated[
        str | None, Query(max_length=32, description="An earlier page's `older` cursor")
    ] = None,
) -> ConversationDetail:
    """The newest messages (a page; `older` pages the earlier ones), each with everything
    needed to render it as it looked live."""
    try:
        detail = await store.get_conversation(
            user=user, conversation_id=conversation_id, limit=limit, before=before
        )
    except ConversationNotFound:
        raise not_found() from None
    except InvalidCursor:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            [{"loc": ["query", "before"], "msg": "not a page cursor", "type": "value_error"}],
        ) from None
    return visible_to(user, await with_pending_approvals(request.app.state.chat, detail))


@router.patch("/{conversation_id}")
async def rename_conversation(
    conversation_id: ConversationId, body: ConversationUpdate, user: CurrentUser, store: StoreDep
) -> ConversationPublic:
    title = " ".join(body.title.split())
    if not title:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            [{"loc": ["body", "title"], "msg": "title must not be blank", "type": "value_error"}],
        )
    try:
        return await store.rename_conversation(
            user=user, conversation_id=conversation_id, title=title
        )
    except ConversationNotFound:
        raise not_found() from None


@router.delete("/{conversation_id}", status_code=status.HTTP_204_NO_CONTENT)
async def delete_conversation(
    conversation_id: ConversationId,
    user: CurrentUser,
    store: StoreDep,
    runs: RunsDep,
    request: Request,
) -> Response:
    """Remove the conversation, its messages and its files; a run still answering in it
    is stopped."""
    try:
        await store.delete_conversation(user=user, conversation_id=conversation_id)
    except ConversationNotFound:
        raise not_found() from None
    # Deleted by its owner just now, so every run in it is this user's.
    await runs.stop_conversation(conversation_id)
    attachments: Attachments | None = getattr(request.app.state, "attachments", None)
    if attachments is not None:  # its files go with it, bytes first
        await attachments.delete_conversation(conversation_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/{conversation_id}/messages/{message_id}/decision",
    responses={
        404: {"model": ErrorResponse, "description": "Conversation or message not found"},
        409: {"model": ErrorResponse, "description": "The message has no payload to decide on"},
    },
)
async def decide_payload(
    conversation_id: ConversationId,
    message_id: MessageId,
    body: PayloadDecisionRequest,
    user: CurrentUser,
    store: StoreDep,
) -> MessagePublic:
    """Record what the user did with the answer's card, so a reload does not reopen it
    and the model is told on the next turn. Closing (`dismissed`) never replaces an
    earlier accept or reject; the message is answered as it now stands."""
    try:
        message = await store.decide_payload(
            user=user,
            conversation_id=conversation_id,
            message_id=message_id,
            decision=body.decision,
        )
    except ConversationNotFound:
        raise not_found() from None
    except MessageNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Message not found") from None
    except NoPayload:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "This message has no payload to decide on"
        ) from None
    return message_visible_to(user, message)
