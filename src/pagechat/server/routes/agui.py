"""`POST /api/agui/{page}`: a run of the assistant for AG-UI clients (CopilotKit, @ag-ui/client).

The run is pagechat's own (stored, with the page context, under the same
authentication); only the wire is AG-UI's. The client aborting its request
stops the run on the server, as Stop does in the tray.

The client's frontend tools (`tools`) are offered to the model; a run whose messages
end with `tool` messages brings the result of the call its thread waits for, and
resumes that turn (`Approvals.answer_frontend_call`, chat/approvals.py). `context`
entries join the page context as client-supplied data; `forwardedProps` is not read
(docs/interop.md). The user message's image and document parts become its attachments
(`pagechat.attachments.inline`): bytes of a data source are stored as an upload is, a
URL source must be one of the user's attachments.
"""

from __future__ import annotations

from typing import Annotated, Any

from ag_ui.core import RunAgentInput, ToolMessage, UserMessage
from fastapi import APIRouter, HTTPException, Path, Request, status
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from ...agui import AguiStream, conversation_for_thread
from ...attachments import InlineFile, inline_files
from ...chat.approvals import ApprovalPending
from ...chat.frontend_tools import (
    MAX_RESULT_CHARS,
    FrontendResultRefused,
    FrontendToolError,
    check_frontend_tools,
    frontend_tool,
)
from ...chat.service import ChatService
from ...identity import Principal
from ...pages import CLIENT_CONTEXT_KEY, get_page
from ...protocol import ChatRequest, json_limit_problem, unstorable
from ...runs import Run
from ...store.base import ConversationNotFound
from ...tools.types import ToolConfig, ToolResult
from ..deps import ChatServiceDep, CurrentUser
from ..sse import STREAM_RESPONSE, EventStream

__all__ = ["router"]

router = APIRouter(prefix="/api/agui", tags=["ag-ui"])

_PING_SECONDS = 15

PageName = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.-]{1,100}$")]


def _unprocessable(detail: str) -> HTTPException:
    return HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail)


def _check_limits(body: RunAgentInput) -> None:
    """Every JSON the client sends is bounded in depth and size before a run starts:
    a 422 naming the field and the limit."""
    fields = {
        "state": body.state,
        "context": [c.value for c in body.context or ()],
        "tools": [t.parameters for t in body.tools or ()],
        "forwardedProps": body.forwarded_props,
    }
    for name, value in fields.items():
        problem = json_limit_problem(value, what=name)
        if problem is not None:
            raise _unprocessable(problem)
    # Every message's text too: a NUL or a lone surrogate cannot be stored (PostgreSQL)
    # or sent on to a model, and would fail the run after it started.
    fields["messages"] = [
        *(
            _text_of(c)
            for m in body.messages
            if isinstance(c := getattr(m, "content", None), (str, list))
        ),
        *(m.error for m in body.messages if isinstance(m, ToolMessage) and m.error),
    ]
    for name, value in fields.items():
        if (problem := unstorable(value)) is not None:
            raise _unprocessable(f"{name}: {problem}")


def _frontend_tools(body: RunAgentInput) -> list[ToolConfig]:
    try:
        tools = [frontend_tool(t.name, t.description, t.parameters) for t in body.tools or []]
        check_frontend_tools(tools)
    except FrontendToolError as exc:
        raise _unprocessable(str(exc)) from None
    return tools


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(getattr(part, "text", "")) for part in content)


def _tool_results(body: RunAgentInput) -> dict[str, ToolResult]:
    """The `tool` messages the thread ends with: the client's results of frontend calls."""
    results: dict[str, ToolResult] = {}
    for message in reversed(body.messages):
        if not isinstance(message, ToolMessage):
            break
        text = _text_of(message.content)
        if message.error:
            text = f"{text}\n{message.error}" if text else message.error
        if len(text) > MAX_RESULT_CHARS:
            raise _unprocessable(
                f"The result of tool call {message.tool_call_id[:80]!r} exceeds "
                f"{MAX_RESULT_CHARS:,} characters"
            )
        results.setdefault(message.tool_call_id, ToolResult(text, is_error=bool(message.error)))
    return results


def _context(body: RunAgentInput, page: str) -> dict[str, Any]:
    """The page context: the state, the page, and the client's context entries (as data)."""
    if body.state is not None and not isinstance(body.state, dict):
        raise _unprocessable("The state must be a JSON object: it is the page's context")
    context: dict[str, Any] = {**(body.state or {}), "current_page": page}
    context.pop(CLIENT_CONTEXT_KEY, None)  # only `context` below fills it
    if body.context:
        context[CLIENT_CONTEXT_KEY] = [
            {"description": c.description, "value": c.value} for c in body.context
        ]
    return context


def _last_user(body: RunAgentInput) -> UserMessage:
    for message in reversed(body.messages):
        if isinstance(message, UserMessage):
            return message
    raise _unprocessable("The run needs a user message to answer")


def _files_of(message: UserMessage) -> list[InlineFile]:
    """The message's media parts (image, document, audio, video) as files to store; the
    bytes' sniffed type decides what is accepted, as for an upload."""
    if isinstance(message.content, str):
        return []
    files = []
    for part in message.content:
        source = getattr(part, "source", None)
        if source is None:
            continue
        meta = part.metadata if isinstance(part.metadata, dict) else {}
        name = meta.get("filename") or meta.get("name")
        name = name if isinstance(name, str) else part.type
        if source.type == "data":
            files.append(InlineFile(data=source.value, name=name))
        else:
            files.append(InlineFile(url=source.value, name=name))
    return files


@router.post(
    "/{page}",
    response_class=EventStream,
    response_model=None,
    responses={
        **STREAM_RESPONSE,
        404: {"description": "No tool call of the thread waits for the result sent"},
        409: {"description": "The call waiting has its result already, or waited too long"},
    },
)
async def agui_run(
    request: Request,
    page: PageName,
    body: RunAgentInput,
    user: CurrentUser,
    chat: ChatServiceDep,
) -> EventStream | JSONResponse:
    """Answer the thread's last user message, or go on with the turn that waits for the
    result its `tool` messages bring; streaming AG-UI events (SSE)."""
    # Before anything is stored: a page nobody registered is 400 (UnknownPage).
    payloads = get_page(page).payloads
    _check_limits(body)
    tools = _frontend_tools(body)
    context = _context(body, page)
    conversation_id = conversation_for_thread(owner_id=user.id, thread_id=body.thread_id)
    results = _tool_results(body)
    resumed: str | None = None
    if results:
        try:
            run, resumed = await _answer(chat, user, conversation_id, results, tools, context)
        except FrontendResultRefused as exc:
            return JSONResponse(
                {"detail": str(exc), "waiting_for": exc.waiting_for}, status_code=exc.status
            )
    else:
        host = request.headers.get("host", "")
        run = await _start(chat, user, body, context, conversation_id, tools, host)
    adapter = AguiStream(
        thread_id=body.thread_id,
        run_id=body.run_id,
        state=body.state,
        frontend_tools=[t.name for t in tools],
        resumed_call=resumed,
        state_keys={p.type: p.state_key for p in payloads if p.state_key},
    )
    runs = chat.runs
    return EventStream(
        run.log,
        adapter=adapter,
        ping=_PING_SECONDS,
        # The client aborting is how AG-UI says Stop (there is no resume).
        on_abort=lambda: runs.stop_nowait(run),
        headers={
            "X-Run-Id": run.id,
            "X-Conversation-Id": run.conversation_id or "",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        },
    )


async def _answer(
    chat: ChatService,
    user: Principal,
    conversation_id: str,
    results: dict[str, ToolResult],
    tools: list[ToolConfig],
    context: dict[str, Any],
) -> tuple[Run, str]:
    """The run that goes on with the turn one of `results` answers, and the call's id."""
    if chat.approvals is None:  # no database: nothing can be waiting
        raise FrontendResultRefused(
            "No tool call waits for a result in this thread", waiting_for=None, status=404
        )
    return await chat.approvals.answer_frontend_call(
        user=user,
        conversation_id=conversation_id,
        results=results,
        tools=tools,
        context=context,
        resume=chat.resume_turn,
    )


async def _start(
    chat: ChatService,
    user: Principal,
    body: RunAgentInput,
    context: dict[str, Any],
    conversation_id: str,
    tools: list[ToolConfig],
    host: str,
) -> Run:
    message = _last_user(body)
    text = _text_of(message.content)
    files = _files_of(message)
    # Checked before the files are stored; a refused message leaves no file stored.
    _request(message=text or " ", context=context, conversation_id=conversation_id)
    async with inline_files(attachments=chat.attachments, user=user, files=files, host=host) as ids:
        chat_request = _request(
            message=text, context=context, conversation_id=conversation_id, attachments=ids
        )
        return await _begin(chat, user, chat_request, tools)


def _request(**fields: Any) -> ChatRequest:
    try:
        return ChatRequest(**fields)
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, errors) from None


async def _begin(
    chat: ChatService, user: Principal, chat_request: ChatRequest, tools: list[ToolConfig]
) -> Run:
    text = chat_request.message
    conversation_id = chat_request.conversation_id
    assert conversation_id is not None
    try:
        # A clash with the page's tools is refused before the conversation is made.
        return await chat.start(
            user=user, request=chat_request, frontend_tools=tools, conversation_title=text
        )
    except ConversationNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found") from None
    except FrontendToolError as exc:
        raise _unprocessable(str(exc)) from None
    except ApprovalPending:
        approvals = chat.approvals
        waiting = (
            None
            if approvals is None
            else await approvals.waiting_frontend_call(user=user, conversation_id=conversation_id)
        )
        if waiting is None:
            raise
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"The thread waits for the result of tool call {waiting!r}: send it as a tool "
            "message before a new user message",
        ) from None
