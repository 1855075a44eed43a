"""Frontend tools: tools a client declares and runs itself (AG-UI's `RunAgentInput.tools`).

The model is offered them like any tool, and its calls are validated against their
JSON Schemas. A valid call is not run here: the loop stops before it exactly as it does
for a call that needs the user's approval (`chat/approvals.py`) — the turn's state goes
into the `approvals` table with kind `frontend_tool` — and the client is told to run it.
The client's result, sent with its next run, is one conditional UPDATE that resumes the
turn in a new run, on any worker, after a restart too. A result that never comes lapses
like an approval: the model reads that the client did not answer in time.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from ..identity import Principal
from ..store import approvals as rows
from ..store.approvals import ApprovalDecided, ApprovalNotFound, ClaimedApproval
from ..tools.types import ToolConfig, ToolContext, ToolResult

if TYPE_CHECKING:
    from ..runs import Run
    from .service import ChatService

__all__ = [
    "FrontendResultRefused",
    "FrontendToolError",
    "answer_frontend_call",
    "check_frontend_tools",
    "frontend_result",
    "frontend_tool",
    "offer_frontend_tools",
    "waiting_frontend_call",
]

MAX_FRONTEND_TOOLS = 50
MAX_SCHEMA_CHARS = 20_000
MAX_RESULT_CHARS = 32_000
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""The tool names the providers accept."""
_MAX_DESCRIPTION = 2_000
_NO_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


class FrontendToolError(ValueError):
    """A declared frontend tool cannot be offered (bad name or schema, or a clash): a 422."""


class FrontendResultRefused(LookupError):
    """A client's tool result that no paused call of this user's thread waits for."""

    def __init__(self, message: str, *, waiting_for: str | None, status: int) -> None:
        super().__init__(message)
        self.waiting_for = waiting_for
        self.status = status


def _not_here(params: dict[str, Any], _ctx: ToolContext) -> ToolResult:
    # The loop pauses before every valid call; this answers only if something ran it anyway.
    return ToolResult("This tool runs in the client's page, not on the server.", is_error=True)


def frontend_tool(name: str, description: str, parameters: Any) -> ToolConfig:
    """A client's tool as a ToolConfig; raises FrontendToolError for a name the providers
    refuse or parameters that are not a JSON Schema of an object."""
    if not _NAME.fullmatch(name):
        raise FrontendToolError(
            f"Frontend tool name {name[:80]!r} must be 1-64 letters, digits, '_' or '-'"
        )
    schema = _NO_PARAMETERS if parameters is None else parameters
    if not isinstance(schema, dict):
        raise FrontendToolError(f"The parameters of frontend tool {name!r} must be a JSON object")
    if len(json.dumps(schema)) > MAX_SCHEMA_CHARS:
        raise FrontendToolError(
            f"The parameters of frontend tool {name!r} exceed {MAX_SCHEMA_CHARS:,} characters"
        )
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        raise FrontendToolError(
            f"The parameters of frontend tool {name!r} are not valid JSON Schema: {exc.message}"
        ) from None
    if schema.get("type") != "object":
        raise FrontendToolError(f'Frontend tool {name!r} must take an object ("type": "object")')
    return ToolConfig(
        name=name,
        description=(description.strip() or name)[:_MAX_DESCRIPTION],
        input_schema=schema,
        executor=_not_here,
        requires_approval=True,
        approval_reason="Runs in the client's page.",
        runs_in_client=True,
    )


def check_frontend_tools(frontend: Sequence[ToolConfig]) -> None:
    """At most MAX_FRONTEND_TOOLS, each name once; else FrontendToolError."""
    if len(frontend) > MAX_FRONTEND_TOOLS:
        raise FrontendToolError(f"At most {MAX_FRONTEND_TOOLS} frontend tools can be declared")
    names = [t.name for t in frontend]
    for name in names:
        if names.count(name) > 1:
            raise FrontendToolError(f"Frontend tool {name!r} is declared twice")


def offer_frontend_tools(
    server_tools: Sequence[ToolConfig], frontend: Sequence[ToolConfig], *, strict: bool = True
) -> list[ToolConfig]:
    """The turn's tools: the server's, then the client's. A client's tool never shadows a
    server tool: a clash raises FrontendToolError, or (`strict` False: a resumed turn,
    whose result is claimed already) the client's tool is left out."""
    check_frontend_tools(frontend)
    taken = {t.name for t in server_tools}
    for tool in frontend:
        if tool.name in taken and strict:
            raise FrontendToolError(
                f"Frontend tool {tool.name!r} has the name of a server tool of this page; rename it"
            )
    return [*server_tools, *(t for t in frontend if t.name not in taken)]


def frontend_result(claimed: ClaimedApproval) -> ToolResult | None:
    """What the model reads for a resumed frontend tool call; None for an approval."""
    if claimed.kind != "frontend_tool":
        return None
    result = claimed.result
    if claimed.approval.status == "approved" and result is not None:
        return ToolResult(str(result.get("text", "")), is_error=bool(result.get("is_error")))
    return ToolResult(
        f"The client did not return a result of {claimed.approval.tool} in time; it may or "
        "may not have run. Tell the user, and do not assume what it did.",
        is_error=True,
    )


async def answer_frontend_call(
    chat: ChatService,
    *,
    user: Principal,
    conversation_id: str,
    results: Mapping[str, ToolResult],
    tools: Sequence[ToolConfig],
    context: dict[str, Any],
) -> tuple[Run, str]:
    """Resume the turn of `conversation_id` that waits for one of `results` (by tool call
    id), offering `tools` (the client's, declared again with its new run); the run, and
    the id of the call it answered.

    The turn goes on with `context`, the page state the client sends now (its tool may
    have changed it), when it is of the same page; else with the state it paused with.

    Raises FrontendResultRefused: 404 when nothing of this user's thread waits for any of
    them (an unknown call, another user's, or no paused turn), 409 when the call waited
    for has its result already or has lapsed.
    """
    if chat.sessions is None:
        raise FrontendResultRefused(
            "No tool call waits for a result in this thread", waiting_for=None, status=404
        )
    run_id = uuid.uuid4().hex
    async with chat.sessions.begin() as session:
        waiting = await rows.pending_frontend_call(
            session=session, owner_id=user.id, conversation_id=conversation_id
        )
        if waiting is None or waiting not in results:
            ids = ", ".join(repr(i[:80]) for i in results)
            raise FrontendResultRefused(
                f"No tool call {ids} waits for a result in this thread",
                waiting_for=waiting,
                status=404,
            )
        result = results[waiting]
        try:
            claimed = await rows.claim_frontend_result(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                tool_use_id=waiting,
                result={"text": result.text, "is_error": result.is_error},
                run_id=run_id,
            )
        except (ApprovalNotFound, ApprovalDecided):
            raise FrontendResultRefused(
                f"The tool call {waiting!r} has its result already, or waited too long",
                waiting_for=None,
                status=409,
            ) from None
    from .approvals import PausedTurn

    paused = PausedTurn(claimed)
    if paused.context.get("current_page") == context.get("current_page"):
        paused.context = dict(context)
    return await chat.resume_turn(user, paused, run_id, extra_tools=tools), waiting


async def waiting_frontend_call(
    chat: ChatService, *, user: Principal, conversation_id: str
) -> str | None:
    """The id of the tool call this user's thread waits for its client to run, if any."""
    if chat.sessions is None:
        return None
    async with chat.sessions() as session:
        return await rows.pending_frontend_call(
            session=session, owner_id=user.id, conversation_id=conversation_id
        )
