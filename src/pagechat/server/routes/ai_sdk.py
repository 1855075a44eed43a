"""`/api/ai-sdk/{page}`: pagechat's runs for a Vercel AI SDK `useChat` app.

`DefaultChatTransport` posts `{id, messages, trigger, messageId}` and the fields the app
adds (`body`, `prepareSendMessagesRequest`): `context` (the page context), `tools` (the
client's own tools, run with `onToolCall`) and `resumable`. The chat `id` is the user's
conversation (made on the first message; another user's is 404, as everywhere). The
server owns the history, so only the end of `messages` is read: a user message is a new
turn; an assistant message whose tool part holds the user's approval response decides
that approval (`Approvals.decide`); one whose client tool part holds its output answers
the call the turn waits for (`Approvals.answer_frontend_call`). `regenerate-message` is
pagechat's regenerate of that answer. The answer streams as the SDK's UI message stream
(`pagechat.aisdk.AiSdkStream`). A user message's `file` parts become its attachments
(`pagechat.attachments.inline`): a `data:` URL is stored as an upload is, any other URL
must be one of the user's attachments (`/api/attachments/{id}`).

Stop: by default the client aborting its request stops the run (the model request is
closed), which is what `useChat`'s `stop()` does. With `resumable: true` the run goes on
when the connection drops; `GET .../{chatId}/stream` (the SDK's `resumeStream`) follows
it from its start (204 when nothing runs) and `POST .../{chatId}/stop` stops it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, HTTPException, Path, Request, status
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...aisdk import UI_MESSAGE_STREAM_HEADERS, AiSdkStream, Resumed
from ...attachments import InlineFile, inline_files
from ...chat.approvals import ApprovalDecided, ApprovalNotFound, ApprovalPending
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
from ...protocol import (
    ApprovalDecisionRequest,
    BranchTurnRequest,
    ChatRequest,
    MessagePublic,
    json_limit_problem,
)
from ...runs import Run, RunNotFound
from ...store.base import AnswerRunning, ConversationNotFound, MessageNotFound, NotBranchable
from ...tools.types import ToolConfig, ToolResult
from ..deps import ChatServiceDep, CurrentUser
from ..sse import STREAM_RESPONSE, EventStream

__all__ = ["AiSdkChatRequest", "router"]

router = APIRouter(prefix="/api/ai-sdk", tags=["ai-sdk"])

_PING_SECONDS = 15
_ID = r"^[A-Za-z0-9_-]{1,32}$"

PageName = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.-]{1,100}$")]
ChatId = Annotated[str, Path(pattern=_ID)]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class UIPart(_Loose):
    """One part of a UI message, as much of it as pagechat reads."""

    type: str
    text: str | None = None
    toolCallId: str | None = None
    state: str | None = None
    output: Any = None
    errorText: str | None = None
    approval: dict[str, Any] | None = None
    url: str | None = None
    filename: str | None = None


class UIMessageIn(_Loose):
    """A UI message of the request: its role and parts."""

    id: str = ""
    role: Literal["system", "user", "assistant"]
    parts: list[UIPart] = Field(default_factory=list)


class ClientTool(BaseModel):
    """A tool the app runs itself (`onToolCall`), declared for the model."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object"})


class AiSdkChatRequest(BaseModel):
    """The body `DefaultChatTransport` posts, with the fields the app adds."""

    model_config = ConfigDict(extra="ignore")
    id: str = Field(pattern=_ID)
    """The chat: the user's conversation with this id."""
    messages: list[UIMessageIn] = Field(min_length=1, max_length=10_000)
    trigger: Literal["submit-message", "regenerate-message"] = "submit-message"
    messageId: str | None = Field(default=None, max_length=64)
    context: dict[str, Any] = Field(default_factory=dict)
    """The page context (the page itself is the path's)."""
    tools: list[ClientTool] = Field(default_factory=list, max_length=50)
    resumable: bool = False
    """The run goes on when the connection drops (resume and stop through their routes)."""


def _unprocessable(detail: Any) -> HTTPException:
    return HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail)


def _validated(model: type[BaseModel], **fields: Any) -> Any:
    try:
        return model(**fields)
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        raise _unprocessable(errors) from None


def _frontend_tools(body: AiSdkChatRequest) -> list[ToolConfig]:
    for tool in body.tools:
        problem = json_limit_problem(tool.parameters, what="tools")
        if problem is not None:
            raise _unprocessable(problem)
    try:
        tools = [frontend_tool(t.name, t.description, t.parameters) for t in body.tools]
        check_frontend_tools(tools)
    except FrontendToolError as exc:
        raise _unprocessable(str(exc)) from None
    return tools


@router.post(
    "/{page}",
    response_class=EventStream,
    response_model=None,
    responses={
        **STREAM_RESPONSE,
        404: {"description": "Another user's chat, or nothing waits for the answer sent"},
        409: {"description": "Decided already, an answer still runs, or a call waits"},
    },
)
async def ai_sdk_chat(
    request: Request,
    page: PageName,
    body: AiSdkChatRequest,
    user: CurrentUser,
    chat: ChatServiceDep,
) -> EventStream | JSONResponse:
    """Answer the chat's new user message, go on with the answer an approval response or a
    client tool's output resumes, or regenerate an answer; a UI message stream (SSE)."""
    get_page(page)  # before anything is stored: a page nobody registered is 400
    tools = _frontend_tools(body)
    context = _validated(BranchTurnRequest, context={**body.context, "current_page": page}).context
    context.pop(CLIENT_CONTEXT_KEY, None)  # AG-UI's `context` entries only, never this body's
    last = body.messages[-1]
    resumed: Resumed | None = None
    call: str | None = None
    try:
        if body.trigger == "regenerate-message":
            run = await _regenerate(chat, user, body, context)
        elif last.role == "assistant":
            run, resumed, call = await _go_on(chat, user, body.id, last, tools, context)
        else:
            host = request.headers.get("host", "")
            run = await _start(chat, user, body.id, last, tools, context, host)
    except FrontendResultRefused as exc:
        return JSONResponse(
            {"detail": str(exc), "waiting_for": exc.waiting_for}, status_code=exc.status
        )
    adapter = AiSdkStream(
        conversation_id=run.conversation_id,
        message_id=await _answer_id(chat, user, run),
        frontend_tools=[t.name for t in tools],
        resumed=resumed,
        resumed_call=call,
    )
    return _stream(chat, run, adapter, stop_on_abort=not body.resumable)


def _stream(
    chat: ChatService, run: Run, adapter: AiSdkStream, *, stop_on_abort: bool
) -> EventStream:
    runs = chat.runs
    return EventStream(
        run.log,
        adapter=adapter,
        ping=_PING_SECONDS,
        # Not resumable: the client aborting is how `useChat` says Stop.
        on_abort=(lambda: runs.stop_nowait(run)) if stop_on_abort else None,
        headers={
            **UI_MESSAGE_STREAM_HEADERS,
            "X-Run-Id": run.id,
            "X-Conversation-Id": run.conversation_id or "",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        },
    )


def _text_of(message: UIMessageIn) -> str:
    return "".join(p.text or "" for p in message.parts if p.type == "text")


async def _start(
    chat: ChatService,
    user: Principal,
    chat_id: str,
    last: UIMessageIn,
    tools: list[ToolConfig],
    context: dict[str, Any],
    host: str,
) -> Run:
    text = _text_of(last)
    # Checked before the files are stored: a request that cannot start stores nothing.
    _validated(ChatRequest, message=text or " ", context=context, conversation_id=chat_id)
    files = [
        InlineFile(url=p.url or "", name=p.filename or "file")
        for p in last.parts
        if p.type == "file"
    ]
    # A refused message (another user's chat, a call waiting) leaves no file stored.
    async with inline_files(attachments=chat.attachments, user=user, files=files, host=host) as ids:
        request = _validated(
            ChatRequest, message=text, context=context, conversation_id=chat_id, attachments=ids
        )
        return await _begin(chat, user, chat_id, request, tools)


async def _begin(
    chat: ChatService,
    user: Principal,
    chat_id: str,
    request: ChatRequest,
    tools: list[ToolConfig],
) -> Run:
    text = request.message
    try:
        return await chat.start(
            user=user, request=request, frontend_tools=tools, conversation_title=text
        )
    except ConversationNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found") from None
    except FrontendToolError as exc:
        raise _unprocessable(str(exc)) from None
    except ApprovalPending:
        waiting = (
            None
            if chat.approvals is None
            else await chat.approvals.waiting_frontend_call(user=user, conversation_id=chat_id)
        )
        if waiting is None:
            raise
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"The chat waits for the output of tool call {waiting!r}: add it "
            "(addToolOutput) before a new user message",
        ) from None


def _result_text(part: UIPart) -> ToolResult:
    if part.state == "output-error":
        text, is_error = part.errorText or "The tool failed.", True
    else:
        output = part.output
        problem = json_limit_problem(output, what="a tool's output")
        if problem is not None:
            raise _unprocessable(problem)
        text, is_error = (
            (output if isinstance(output, str) else orjson.dumps(output).decode()),
            False,
        )
    if "\x00" in text:  # PostgreSQL cannot store it
        raise _unprocessable("A tool's output must not contain NUL characters")
    if len(text) > MAX_RESULT_CHARS:
        raise _unprocessable(
            f"The output of tool call {(part.toolCallId or '')[:80]!r} exceeds "
            f"{MAX_RESULT_CHARS:,} characters"
        )
    return ToolResult(text, is_error=is_error)


def _is_tool(part: UIPart) -> bool:
    return (part.type.startswith("tool-") or part.type == "dynamic-tool") and bool(part.toolCallId)


async def _go_on(
    chat: ChatService,
    user: Principal,
    chat_id: str,
    last: UIMessageIn,
    tools: list[ToolConfig],
    context: dict[str, Any],
) -> tuple[Run, Resumed, str]:
    """The run that goes on with the paused answer the last (assistant) message answers:
    its approval response, else its client tools' outputs."""
    approvals = chat.approvals
    parts = [p for p in last.parts if _is_tool(p)]
    responded = [
        p
        for p in parts
        if p.state == "approval-responded"
        and p.approval is not None
        and isinstance(p.approval.get("approved"), bool)
    ]
    if responded:
        part = responded[-1]
        assert part.toolCallId is not None
        return await _decide(chat, user, part), "approval", part.toolCallId
    results = {
        p.toolCallId: _result_text(p)
        for p in parts
        if p.toolCallId is not None and p.state in ("output-available", "output-error")
    }
    if not results or approvals is None:
        raise FrontendResultRefused(
            "Nothing in this message answers what the chat waits for: send a user message, "
            "an approval response or a client tool's output",
            waiting_for=None,
            status=404,
        )
    run, call = await approvals.answer_frontend_call(
        user=user,
        conversation_id=chat_id,
        results=results,
        tools=tools,
        context=context,
        resume=chat.resume_turn,
    )
    return run, "frontend_tool", call


async def _decide(chat: ChatService, user: Principal, part: UIPart) -> Run:
    """The user's approval response (`addToolApprovalResponse`) recorded on pagechat's
    stored approval; the run that goes on with the turn."""
    approvals, approval = chat.approvals, part.approval or {}
    if approvals is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Approval not found")
    approved = bool(approval.get("approved"))
    reason = approval.get("reason")
    # The decision route's own checks (a note of at most 2,000 storable characters).
    decision = _validated(
        ApprovalDecisionRequest,
        decision="approved" if approved else "denied",
        note=reason if isinstance(reason, str) else None,
    )
    try:
        _, run = await approvals.decide(
            user=user,
            approval_id=str(approval.get("id", ""))[:64],
            approved=approved,
            note=decision.note,
            resume=chat.resume_turn,
        )
    except ApprovalNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Approval not found") from None
    except ApprovalDecided:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "This request was decided already, or has lapsed."
        ) from None
    return run


async def _regenerate(
    chat: ChatService, user: Principal, body: AiSdkChatRequest, context: dict[str, Any]
) -> Run:
    """pagechat's regenerate of the answer `messageId` names (or follows, when it names
    the question), else of the chat's last answer."""
    path = await _path(chat, user, body.id)
    target = _answer_to_regenerate(path, body.messageId)
    if target is None:
        raise HTTPException(status.HTTP_409_CONFLICT, "There is no answer to regenerate")
    try:
        return await chat.start_branch(
            user=user,
            conversation_id=body.id,
            message_id=target,
            kind="regenerate",
            context=context,
        )
    except (ConversationNotFound, MessageNotFound):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Message not found") from None
    except AnswerRunning:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "An answer is still running in this chat; stop it or wait for it first.",
        ) from None
    except NotBranchable as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None


def _answer_to_regenerate(path: list[MessagePublic], message_id: str | None) -> str | None:
    for i, message in enumerate(path):
        if message.id == message_id:
            if message.role == "assistant":
                return message.id
            after = path[i + 1] if i + 1 < len(path) else None
            return after.id if after is not None and after.role == "assistant" else None
    answers = [m.id for m in path if m.role == "assistant"]
    return answers[-1] if answers else None


async def _path(chat: ChatService, user: Principal, chat_id: str) -> list[MessagePublic]:
    try:
        detail = await chat.store.get_conversation(user=user, conversation_id=chat_id, limit=200)
    except ConversationNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found") from None
    return detail.messages


async def _answer_id(chat: ChatService, user: Principal, run: Run) -> str | None:
    """pagechat's id of the answer `run` writes (the `start` part's `messageId`)."""
    if run.conversation_id is None:
        return None
    # By its run, not by its status: a quick answer may have ended already.
    last = await _last_message(chat, user, run.conversation_id)
    return last.id if last is not None and last.run_id == run.id else None


async def _last_message(chat: ChatService, user: Principal, chat_id: str) -> MessagePublic | None:
    """The last message of the chat's active path (its newest answer), if any."""
    try:
        detail = await chat.store.get_conversation(user=user, conversation_id=chat_id, limit=1)
    except ConversationNotFound:
        return None
    return detail.messages[-1] if detail.messages else None


async def _running_message(
    chat: ChatService, user: Principal, chat_id: str
) -> MessagePublic | None:
    """The chat's answer that is running, if any (its active path's last message)."""
    last = await _last_message(chat, user, chat_id)
    return last if last is not None and last.status == "running" and last.run_id else None


async def _running_run(chat: ChatService, user: Principal, chat_id: str) -> Run | None:
    """The run of the chat's running answer; 404 for another user's chat."""
    try:
        if not await chat.store.conversation_exists(user=user, conversation_id=chat_id):
            return None
    except ConversationNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Conversation not found") from None
    running = await _running_message(chat, user, chat_id)
    if running is None or running.run_id is None:
        return None
    try:
        return await chat.runs.find(running.run_id, owner_id=user.id)
    except RunNotFound:
        return None


@router.get(
    "/{page}/{chat_id}/stream",
    response_class=EventStream,
    response_model=None,
    responses={**STREAM_RESPONSE, 204: {"description": "No answer runs in this chat"}},
)
async def ai_sdk_resume(
    page: PageName, chat_id: ChatId, user: CurrentUser, chat: ChatServiceDep
) -> EventStream | Response:
    """The chat's running answer from its start (the SDK's `resumeStream`); 204 when none runs."""
    get_page(page)
    run = await _running_run(chat, user, chat_id)
    if run is None or run.done:
        return Response(status_code=status.HTTP_204_NO_CONTENT)
    adapter = AiSdkStream(
        conversation_id=run.conversation_id, message_id=await _answer_id(chat, user, run)
    )
    # A reconnect never stops the run: it was asked for by a resumable chat.
    return _stream(chat, run, adapter, stop_on_abort=False)


@router.post("/{page}/{chat_id}/stop", status_code=status.HTTP_202_ACCEPTED)
async def ai_sdk_stop(
    page: PageName, chat_id: ChatId, user: CurrentUser, chat: ChatServiceDep
) -> dict[str, Any]:
    """Stop the chat's running answer: the model request is closed, a running tool cancelled."""
    get_page(page)
    run = await _running_run(chat, user, chat_id)
    if run is None:
        return {"run_id": None, "stopped": False}
    stopped = await chat.runs.stop(run)
    return {"run_id": run.id, "stopped": stopped}
