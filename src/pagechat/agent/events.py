"""The events only the agent loop and the turn see, and the union the loop yields.

The loop yields `pagechat.events`' own `TextDelta` (the provider's, passed on),
`Status`, `ToolStart` and `ToolUpdate`: the run emits them as they are. The four here
carry what only the loop knows (a tool's payload, the turn's usage, the state a pause
resumes from); the turn folds each into the events the user sees (chat/turn.py). They
are built the same way: frozen, keywords only, named by `kind`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..events import ReasoningDelta, Status, TextDelta, ToolStart, ToolUpdate
from ..models.base import StopReason, TokenUsage
from ..models.errors import ProviderErrorKind
from ..protocol import EntityChange, Source
from .pause import LoopState

__all__ = [
    "AgentApprovalRequested",
    "AgentComplete",
    "AgentError",
    "AgentEvent",
    "AgentToolComplete",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentToolComplete:
    """A tool call finished: its input, the text the model reads, and the payload for a card."""

    kind: Literal["agent_tool_complete"] = "agent_tool_complete"
    tool: str
    tool_use_id: str
    input: dict[str, Any]
    output: str
    """The result's text, as the tool gave it (the turn seals what the user sees)."""
    payload: dict[str, Any] | None = None
    is_error: bool = False
    in_answer: bool = False
    """The result's text is part of the answer (`ToolConfig.result_is_answer`): shown as
    text, with no card; no `ToolStart` came before it."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """The turn's tokens so far: every model call up to the one that asked for this call."""
    changes: tuple[EntityChange, ...] = ()
    """What the call changed in the app (`ToolResult.changes`)."""
    sources: tuple[Source, ...] = ()
    """The result's sources (`ToolResult.sources`), numbered in the answer."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentComplete:
    """The loop ended: why, and the tokens the whole turn used."""

    kind: Literal["agent_complete"] = "agent_complete"
    stop_reason: StopReason
    usage: TokenUsage = field(default_factory=TokenUsage)
    last_input_tokens: int = 0
    """Prompt size of the final call: how close the conversation is to the context window."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentApprovalRequested:
    """The loop stopped before a call the user must approve; `state` resumes it."""

    kind: Literal["agent_approval_requested"] = "agent_approval_requested"
    tool: str
    tool_use_id: str
    input: dict[str, Any]
    reason: str
    state: LoopState
    approval_kind: Literal["approval", "frontend_tool"] = "approval"
    """`frontend_tool`: the call waits for the client to run it, not for a decision."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentError:
    """The loop failed: the message for the user, its code, and the tokens used until then."""

    kind: Literal["agent_error"] = "agent_error"
    message: str
    code: ProviderErrorKind | str = "internal"
    usage: TokenUsage = field(default_factory=TokenUsage)


AgentEvent = (
    Status
    | TextDelta
    | ReasoningDelta
    | ToolStart
    | ToolUpdate
    | AgentToolComplete
    | AgentComplete
    | AgentError
    | AgentApprovalRequested
)
"""What `run_agent_loop` yields, discriminated by `kind`."""
