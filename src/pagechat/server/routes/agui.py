"""`POST /api/agui/{page}`: a run of the assistant for AG-UI clients (CopilotKit, @ag-ui/client).

The run is pagechat's own (stored, with the page context, under the same
authentication); only the wire is AG-UI's. The client aborting its request
stops the run on the server, as Stop does in the tray.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from ag_ui.core import RunAgentInput, UserMessage
from ag_ui.encoder import EventEncoder
from fastapi import APIRouter, HTTPException, Path, Request, status
from pydantic import ValidationError
from sse_starlette import EventSourceResponse

from ...agui import AguiTranslator, conversation_for_thread
from ...pages import get_page
from ...protocol import ChatRequest
from ...runs import Run, RunManager
from ...store.base import ConversationNotFound
from ..deps import ChatServiceDep, CurrentUser

__all__ = ["router"]

router = APIRouter(prefix="/api/agui", tags=["ag-ui"])

_PING_SECONDS = 15

PageName = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.-]{1,100}$")]


def _last_user_text(body: RunAgentInput) -> str:
    for message in reversed(body.messages):
        if isinstance(message, UserMessage):
            if isinstance(message.content, str):
                return message.content
            return "".join(str(getattr(part, "text", "")) for part in message.content)
    raise HTTPException(
        status.HTTP_422_UNPROCESSABLE_CONTENT, "The run needs a user message to answer"
    )


async def _events(
    runs: RunManager, run: Run, translator: AguiTranslator, state: Any
) -> AsyncIterator[bytes]:
    encoder = EventEncoder()
    for event in translator.start(state):
        yield encoder.encode(event).encode()
    try:
        async for _seq, data in run.log.follow(0):
            for event in translator.translate(json.loads(data)):
                yield encoder.encode(event).encode()
    except asyncio.CancelledError:
        # The client aborted: in AG-UI that is how Stop is said.
        runs.stop_nowait(run)
        raise


@router.post("/{page}", response_class=EventSourceResponse)
async def agui_run(
    page: PageName,
    body: RunAgentInput,
    user: CurrentUser,
    chat: ChatServiceDep,
    request: Request,
) -> EventSourceResponse:
    """Answer the thread's last user message, streaming AG-UI events (SSE)."""
    get_page(page)  # before anything is stored: a page nobody registered is 400 (UnknownPage)
    text = _last_user_text(body)
    state = body.state if isinstance(body.state, dict) else {}
    conversation_id = conversation_for_thread(owner_id=user.id, thread_id=body.thread_id)
    try:
        chat_request = ChatRequest(
            message=text,
            context={**state, "current_page": page},
            conversation_id=conversation_id,
        )
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, errors) from None
    try:
        await chat.store.ensure_conversation(user=user, conversation_id=conversation_id, title=text)
        run = await chat.start(user=user, request=chat_request)
    except ConversationNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found") from None
    translator = AguiTranslator(thread_id=body.thread_id, run_id=body.run_id)
    return EventSourceResponse(
        _events(chat.runs, run, translator, body.state),
        ping=_PING_SECONDS,
        headers={
            "X-Run-Id": run.id,
            "X-Conversation-Id": run.conversation_id or "",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        },
    )
