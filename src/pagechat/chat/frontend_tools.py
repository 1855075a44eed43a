"""Frontend tools: tools a client declares and runs itself (AG-UI's `RunAgentInput.tools`).

Here they are declared, checked and offered. The model is offered them like any tool, and
its calls are validated against their JSON Schemas. A valid call is not run here: the loop
stops before it exactly as it does for a call that needs the user's approval — the turn's
state goes into the `approvals` table with kind `frontend_tool` — and the client is told to
run it. The client's result, sent with its next run, is one conditional UPDATE that resumes
the turn in a new run, on any worker, after a restart too (`Approvals.answer_frontend_call`,
chat/approvals.py). A result that never comes lapses like an approval: the model reads that
the client did not answer in time (`chat/paused.frontend_result`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from ..tools.schema_limits import SchemaRefused, check_client_schema
from ..tools.types import ToolConfig, ToolContext, ToolResult

__all__ = [
    "FrontendResultRefused",
    "FrontendToolError",
    "check_frontend_tools",
    "frontend_tool",
    "offer_frontend_tools",
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
        check_client_schema(schema, what=f"frontend tool {name!r}")
        Draft202012Validator.check_schema(schema)
    except SchemaRefused as exc:
        raise FrontendToolError(str(exc)) from None
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
