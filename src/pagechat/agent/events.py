"""Provider-neutral events of the agent loop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..models.base import StopReason, TokenUsage
from ..models.errors import ProviderErrorKind
from .pause import LoopState

__all__ = [
    "AgentApprovalRequested",
    "AgentComplete",
    "AgentError",
    "AgentEvent",
    "AgentTextDelta",
    "AgentThinking",
    "AgentToolComplete",
    "AgentToolProgress",
    "AgentToolStart",
]


@dataclass(frozen=True, slots=True)
class AgentThinking:
    """A status line to show while the model works on, after a round of tool calls."""

    message: str


@dataclass(frozen=True, slots=True)
class AgentTextDelta:
    """A piece of the model's answer text, as it streams."""

    text: str


@dataclass(frozen=True, slots=True)
class AgentToolStart:
    """The model called a tool, which starts now."""

    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str


@dataclass(frozen=True, slots=True)
class AgentToolProgress:
    """A running tool's progress (`ToolProgress`), passed on to the stream."""

    tool_name: str
    stage: str
    message: str
    progress: float | None
    data: Any = None


@dataclass(frozen=True, slots=True)
class AgentToolComplete:
    """A tool call finished: its input, the text the model reads, and the payload for a card."""

    tool_name: str
    tool_use_id: str
    tool_input: dict[str, Any]
    result_text: str
    payload: dict[str, Any] | None = None
    is_error: bool = False
    in_answer: bool = False
    """The result's text is part of the answer (`ToolConfig.result_is_answer`): shown as
    text, with no card; no `AgentToolStart` came before it."""


@dataclass(frozen=True, slots=True)
class AgentComplete:
    """The loop ended: why, and the tokens the whole turn used."""

    stop_reason: StopReason
    usage: TokenUsage = field(default_factory=TokenUsage)
    last_input_tokens: int = 0
    """Prompt size of the final call: how close the conversation is to the context window."""


@dataclass(frozen=True, slots=True)
class AgentApprovalRequested:
    """The loop stopped before a call the user must approve; `state` resumes it."""

    tool_name: str
    tool_use_id: str
    tool_input: dict[str, Any]
    reason: str
    state: LoopState
    kind: Literal["approval", "frontend_tool"] = "approval"
    """`frontend_tool`: the call waits for the client to run it, not for a decision."""


@dataclass(frozen=True, slots=True)
class AgentError:
    """The loop failed: the message for the user, its kind, and the tokens used until then."""

    message: str
    kind: ProviderErrorKind | str = "internal"
    usage: TokenUsage = field(default_factory=TokenUsage)


AgentEvent = (
    AgentThinking
    | AgentTextDelta
    | AgentToolStart
    | AgentToolProgress
    | AgentToolComplete
    | AgentComplete
    | AgentError
    | AgentApprovalRequested
)
