"""The chat routes: start a turn, follow or resume a run, stop it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request, status

from ...protocol import ChatRequest
from ...runs import Run, RunManager, RunNotFound
from ...store.base import ConversationNotFound
from ..deps import ChatServiceDep, CurrentUser, RunsDep
from ..sse import STREAM_RESPONSE, EventStream

__all__ = ["router", "stream_run"]

router = APIRouter(prefix="/api/chat", tags=["chat"])

_PING_SECONDS = 15


def stream_run(runs: RunManager, run: Run, after: int, request: Request) -> EventStream:
    # The client going away stops the run only when the app asks for that.
    """The SSE response of `run`'s events after `after`, with pings."""
    stop = (lambda: runs.stop_nowait(run)) if request.app.state.cancel_on_disconnect else None
    return EventStream(
        run.log,
        after,
        ping=_PING_SECONDS,
        on_disconnect=stop,
        headers={
            "X-Run-Id": run.id,
            "X-Conversation-Id": run.conversation_id or "",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        },
    )


@router.post(
    "/stream",
    response_class=EventStream,
    responses={**STREAM_RESPONSE, 404: {"description": "Conversation not found"}},
)
async def stream_chat(
    body: ChatRequest, user: CurrentUser, chat: ChatServiceDep, request: Request
) -> EventStream:
    """Start a turn; the answer streams as SSE (`id:` = event sequence number)."""
    try:
        run = await chat.start(user=user, request=body)
    except ConversationNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found") from None
    return stream_run(chat.runs, run, 0, request)


async def _owned_run(runs: RunsDep, run_id: str, user: CurrentUser) -> Run:
    try:
        return await runs.find(run_id, owner_id=user.id)
    except RunNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found") from None


def _parse_event_id(raw: str | None) -> int:
    if raw is None or raw == "":
        return 0
    try:
        value = int(raw)
    except ValueError:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, f"Invalid event id {raw!r}") from None
    if value < 0:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, f"Invalid event id {raw!r}")
    return value


@router.get("/runs/{run_id}/events", response_class=EventStream, responses=STREAM_RESPONSE)
async def run_events(
    run_id: str,
    user: CurrentUser,
    runs: RunsDep,
    request: Request,
    last_event_id: Annotated[str | None, Header()] = None,
    after: Annotated[str | None, Query(description="Same as Last-Event-ID")] = None,
) -> EventStream:
    """Resume a run: every event after `Last-Event-ID`, then the live ones."""
    run = await _owned_run(runs, run_id, user)
    seq = _parse_event_id(last_event_id if last_event_id is not None else after)
    if seq > run.log.last_seq:
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            f"Unknown event id {seq}: the run has {run.log.last_seq} events so far",
        )
    return stream_run(runs, run, seq, request)


@router.post("/runs/{run_id}/cancel", status_code=status.HTTP_202_ACCEPTED)
async def cancel_run(run_id: str, user: CurrentUser, runs: RunsDep) -> dict[str, Any]:
    """Stop a run: the model request is closed, a running tool cancelled."""
    run = await _owned_run(runs, run_id, user)
    cancelled = await runs.stop(run)
    return {"run_id": run.id, "cancelled": cancelled, "status": run.terminal or "cancelling"}
