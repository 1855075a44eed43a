"""What a tool is, what it gets, and what it gives back."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..payloads import Payload
from ..protocol import EntityChange, Source

__all__ = ["ToolConfig", "ToolContext", "ToolExecutor", "ToolProgress", "ToolResult"]


@dataclass(frozen=True, slots=True, init=False)
class ToolResult:
    """A tool's answer: `text` for the model, `payload` (`{type, data}`) for a UI card.

    `payload` may be given as a `Payload` model; it is kept as its `as_payload()` dict.
    `changes` says what the call changed in the app (an `EntityChange` each): the
    browser's pages that show it refetch it or move on. `sources` are where its text
    comes from (a `Source` each: id, title, http(s) url, detail, snippet): the model reads
    them numbered per answer and cites them as `[n]`; the tray lists them under the answer.
    """

    text: str
    payload: dict[str, Any] | None
    is_error: bool
    changes: tuple[EntityChange, ...]
    sources: tuple[Source, ...]

    def __init__(
        self,
        text: str,
        payload: dict[str, Any] | Payload | None = None,
        is_error: bool = False,
        *,
        changes: tuple[EntityChange, ...] | list[EntityChange] = (),
        sources: tuple[Source, ...] | list[Source] = (),
    ) -> None:
        if isinstance(payload, Payload):
            payload = payload.as_payload()
        # The class is frozen: set the fields as dataclasses' own __init__ does.
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "payload", payload)
        object.__setattr__(self, "is_error", is_error)
        object.__setattr__(self, "changes", tuple(changes))
        object.__setattr__(self, "sources", tuple(sources))


@dataclass(frozen=True, slots=True)
class ToolProgress:
    """Yielded by a generator tool while it works; reaches the stream at once."""

    stage: str = ""
    message: str = ""
    progress: float | None = None
    data: Any = None


@dataclass(slots=True)
class ToolContext:
    """Everything a tool may need about who asked and where.

    `session` is the request's database session (an `AsyncSession`) when the app
    has a store. `cancelled` is set when the run is stopped: a synchronous tool
    running in a thread cannot be interrupted, so a long one should check it.
    """

    user_id: str | None = None
    is_admin: bool = False
    conversation_id: str | None = None
    run_id: str | None = None
    page_context: dict[str, Any] = field(default_factory=dict)
    session: Any = None
    extras: dict[str, Any] = field(default_factory=dict)
    cancelled: threading.Event = field(default_factory=threading.Event)

    @property
    def current_page(self) -> str | None:
        """The page the user is on (`page_context["current_page"]`), if the browser said."""
        page = self.page_context.get("current_page")
        return page if isinstance(page, str) else None


ToolExecutor = Callable[[dict[str, Any], ToolContext], Any]
"""`(input, context)` → `str` | `ToolResult`, or an awaitable of one, or a (sync or
async) generator that yields `ToolProgress` and ends by yielding a `ToolResult` or
a `str` (a sync generator may also `return` it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolConfig:
    """A tool the model can call: the low-level form, keyword-only.

    Most tools are typed functions made into a config by `@tool` (or
    `function_tool(function, ...)`), which fills `input_schema`, `input_model` and
    `payload_schema` from the signature. Built by hand:

    * `name` and `description` are what the model sees; `input_schema` (a JSON Schema
      object) describes the input and checks every call before it runs.
    * `executor(input, context)` does the work (see `ToolExecutor`): plain or async, or a
      generator that yields `ToolProgress` and ends with its result.
    * `input_model`, when set, validates the input after `input_schema`; its errors are
      invalid input too, read by the model with the bad fields named.
    * `payload_schema` is the JSON Schema of the `data` of the payloads the tool returns:
      each result's payload is checked against it, repaired where the meaning is
      unambiguous, and shown as a `payload_error` card when it cannot be used, instead of
      a card the browser cannot render (`pagechat.tools.repair`). `None` checks nothing
      but that the payload has a `type`.

    Invalid input, an exception, a timeout: each becomes an error result the model reads
    (`is_error`), and the run goes on (`execute_tool`).
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    executor: ToolExecutor
    timeout: float = 60.0
    """Seconds before the call is abandoned and the model told it timed out."""
    required_role: str | None = None
    """`"admin"` hides the tool from everyone else; `None` offers it to all users."""
    requires_approval: bool | Callable[[dict[str, Any]], bool] = False
    """Ask the user before running: always, or when this function of the validated
    input says so. The turn pauses until they approve or deny (`pagechat.chat.approvals`)."""
    approval_reason: str | Callable[[dict[str, Any]], str] | None = None
    """The short reason the approval card shows; default: the description's first sentence."""
    runs_in_client: bool = False
    """A frontend tool (AG-UI): the client runs it, not the server. The loop stops before
    each call as it does for approval; the client's result resumes it (chat/frontend_tools.py)."""
    payload_schema: dict[str, Any] | None = None
    """JSON Schema of its results' payload `data`: a payload off it is repaired where the
    meaning is unambiguous, else shown as a `payload_error` card (`pagechat.tools.repair`)."""
    result_is_answer: bool = False
    """A successful result's text is shown as the end of the answer itself, with no card,
    and the turn ends there: the model is not called again (`present_choices`)."""
    input_model: type[BaseModel] | None = None
    """A pydantic model of the input, validated after `input_schema` (set by `tool`)."""
    payload_type: str | None = None
    """The `type` of the payload its results carry, when it declares one: `GET
    /api/payload-types` then lists `payload_schema` under it for the web UI's schema card."""
    safe_to_repeat: bool = False
    """Running it twice does no harm (it reads, or its writes are idempotent): a call
    that was running when its server stopped is run again by the worker that takes the
    answer over. False (the default, right for a tool that writes): it is not run again,
    and the model is told its outcome is unknown (chat/resume.py)."""
    needs_user: bool = False
    """It acts for a signed-in user (`ToolContext.user_id`) and cannot work without one:
    `pagechat mcp serve` refuses to start without `--user` when it serves such a tool."""

    def approval_needed(self, params: dict[str, Any]) -> str | None:
        """The reason to ask before running with these (already validated) `params`, or None."""
        needed = self.requires_approval
        if not (needed(params) if callable(needed) else needed):
            return None
        reason = self.approval_reason
        if callable(reason):
            return reason(params)
        if reason:
            return reason
        first = self.description.strip().split(". ")[0].strip().rstrip(".")
        return f"{first}." if first else f"Run {self.name}."

    def allowed_for(self, *, is_admin: bool) -> bool:
        """Whether to offer the tool to this user (`required_role`)."""
        return self.required_role is None or (self.required_role == "admin" and is_admin)
