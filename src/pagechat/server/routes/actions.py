"""Server actions: the buttons of `SUGGESTED_ACTIONS` whose handler is `server`."""

from __future__ import annotations

import inspect
import logging
import uuid
from typing import Any

from fastapi import APIRouter, HTTPException, status

from ...pages import ActionContext, page_in
from ...protocol import ActionRequest, ActionResult
from ...store.base import ConversationNotFound
from ...tools.execute import schema_error
from ..deps import ChatServiceDep, CurrentUser, OptionalSessionDep

__all__ = ["router"]

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/api/chat", tags=["chat"])


def _as_result(action: str, value: Any) -> ActionResult:
    if isinstance(value, ActionResult):
        return value
    message = getattr(value, "message", None)
    if isinstance(message, str):
        return ActionResult(
            action=action,
            ok=bool(getattr(value, "ok", True)),
            message=message,
            data=getattr(value, "data", None),
        )
    return ActionResult(action=action, data=value)


@router.post("/actions", responses={404: {"description": "Unknown action or conversation"}})
async def run_action(
    body: ActionRequest, user: CurrentUser, chat: ChatServiceDep, session: OptionalSessionDep
) -> ActionResult:
    """Run a server action registered for the page in `context.current_page`.

    The result is recorded in the conversation, so the model knows on the next
    turn what the user applied. The handler gets the request's database session
    (`ActionContext.session`) and commits what it writes.
    """
    page = page_in(body.context)  # a page nobody registered: 400 (UnknownPage)
    action = page.server_action(body.action)
    if action is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, f"Unknown action {body.action!r} on this page"
        )
    if body.conversation_id is not None:
        try:
            await chat.store.history(user=user, conversation_id=body.conversation_id, limit=1)
        except ConversationNotFound:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found") from None
    if action.data_schema is not None:
        problem = schema_error(action.data_schema, body.data)
        if problem is not None:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, f"Invalid data: {problem}")
    context = ActionContext(
        user_id=user.id,
        is_admin=user.is_admin,
        conversation_id=body.conversation_id,
        page_context=body.context,
        session=session,
    )
    try:
        value = action.handler(body.data, context)
        if inspect.isawaitable(value):
            value = await value
        result = _as_result(action.action, value)
    except Exception:
        # An exception is a bug of the action, not a message for the user: its text may
        # hold paths, queries or secrets. The user gets an id to quote; the log has it all.
        incident = uuid.uuid4().hex[:12]
        logger.exception("server action %s failed (incident %s)", action.action, incident)
        result = ActionResult(
            action=action.action,
            ok=False,
            message=(
                "The action could not be completed. If it keeps failing, "
                f"report incident {incident}."
            ),
            data={"incident": incident},
        )
    if body.conversation_id is not None:
        await chat.store.record_action(
            user=user,
            conversation_id=body.conversation_id,
            action=action.action,
            data=body.data,
            result=result.model_dump(mode="json"),
        )
    return result
