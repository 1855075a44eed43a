"""A loop paused before a tool call that needs the user's approval, and its resumption.

The loop does not wait in memory: it stops, and everything it needs to go on is a
`LoopState` that serializes to plain JSON. Whoever holds the decision — the same
process minutes later, another worker, or a server started after a crash — resumes
it with `run_agent_loop(..., resume=LoopResume(state, approved, note))`.

This is the loop's part of a pause. The turn's part — the answer the user saw so far,
its cards, the page context — is `chat.paused.SavedTurn`, which stores this state
(`to_json`) beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models.base import (
    AssistantTurn,
    ModelMessage,
    ThinkingPart,
    TokenUsage,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    UserTurn,
)
from ..tools.types import ToolResult

__all__ = ["LoopResume", "LoopState", "denied_result"]


@dataclass(frozen=True, slots=True)
class LoopState:
    """Where the loop stopped: `calls[len(results)]` is the call waiting for approval."""

    messages: tuple[ModelMessage, ...]
    """The conversation as the model saw it, this turn's tool rounds included."""
    iteration: int
    usage: TokenUsage
    text: str
    """What the model wrote before its tool calls in the paused iteration."""
    calls: tuple[ToolCallPart, ...]
    results: tuple[ToolResultPart, ...]
    thinking: tuple[ThinkingPart, ...] = ()
    """The model's reasoning blocks before `calls`, sent back with them on resuming
    (Anthropic checks their signatures); states stored before them have none."""

    @property
    def waiting(self) -> ToolCallPart:
        """The call the loop stopped before: the first of `calls` with no result yet."""
        return self.calls[len(self.results)]

    def to_json(self) -> dict[str, Any]:
        """The state as plain JSON, to store with the approval request."""
        return {
            "messages": [_message_json(m) for m in self.messages],
            "iteration": self.iteration,
            "usage": self.usage.as_list(),
            "text": self.text,
            "calls": [_call_json(c) for c in self.calls],
            "results": [_result_json(r) for r in self.results],
            "thinking": [t.to_json() for t in self.thinking],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LoopState:
        """The state `to_json` wrote, read back to resume the loop."""
        usage = data["usage"]
        return cls(
            messages=tuple(_message_from(m) for m in data["messages"]),
            iteration=int(data["iteration"]),
            usage=TokenUsage.from_list(usage),
            text=str(data["text"]),
            calls=tuple(_call_from(c) for c in data["calls"]),
            results=tuple(_result_from(r) for r in data["results"]),
            thinking=tuple(ThinkingPart.from_json(t) for t in data.get("thinking") or ()),
        )


@dataclass(frozen=True, slots=True)
class LoopResume:
    """A paused loop and the user's decision on the call it waits for."""

    state: LoopState
    approved: bool
    note: str | None = None
    """The user's reason for denying, or why the request lapsed; told to the model."""
    result: ToolResult | None = None
    """The waiting call's result when it ran elsewhere (a frontend tool the client ran),
    or what the model reads because it never came; it is used as is, nothing is run."""


def denied_result(tool: str, note: str | None) -> str:
    """What the model reads for a call the user did not approve."""
    why = f" Their reason: {note}" if note else ""
    return (
        f"The user did not approve this call of {tool}; it was not run.{why} "
        "Do not call it again unless the user asks; tell them what you would have done."
    )


def _call_json(call: ToolCallPart) -> dict[str, Any]:
    return {"id": call.id, "name": call.name, "input": call.input}


def _call_from(data: dict[str, Any]) -> ToolCallPart:
    return ToolCallPart(str(data["id"]), str(data["name"]), dict(data["input"]))


def _result_json(result: ToolResultPart) -> dict[str, Any]:
    return {"id": result.tool_use_id, "content": result.content, "is_error": result.is_error}


def _result_from(data: dict[str, Any]) -> ToolResultPart:
    return ToolResultPart(str(data["id"]), str(data["content"]), bool(data["is_error"]))


def _message_json(message: ModelMessage) -> dict[str, Any]:
    if isinstance(message, UserTurn):
        return {"role": "user", "text": message.text}
    if isinstance(message, AssistantTurn):
        data: dict[str, Any] = {
            "role": "assistant",
            "text": message.text,
            "calls": [_call_json(c) for c in message.tool_calls],
        }
        if message.thinking:
            data["thinking"] = [t.to_json() for t in message.thinking]
        return data
    return {"role": "tool_results", "results": [_result_json(r) for r in message.results]}


def _message_from(data: dict[str, Any]) -> ModelMessage:
    role = data["role"]
    if role == "user":
        return UserTurn(str(data["text"]))
    if role == "assistant":
        return AssistantTurn(
            str(data["text"]),
            tuple(_call_from(c) for c in data["calls"]),
            thinking=tuple(ThinkingPart.from_json(t) for t in data.get("thinking") or ()),
        )
    return ToolResultsTurn(tuple(_result_from(r) for r in data["results"]))
