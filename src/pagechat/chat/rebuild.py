"""An answer as its followers saw it, folded from its run's event log.

A takeover (`resume.AnswerTakeover`) starts from here: the log in Redis holds every
event the followers got, so the text, the completed tool calls with their results,
the cards the model wrote and the reasoning shown are known exactly, not only up to the
last database checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import orjson

from ..events import ReplyParts, ToolComplete, ToolStart, decode_event
from ..models.base import TokenUsage
from ..pages import ParsedReply
from ..protocol import EntityChange, Reasoning, ToolHistoryEntry
from .turn import joined_parts

__all__ = ["Rebuilt", "rebuild"]


@dataclass(slots=True)
class Rebuilt:
    """An answer as its followers saw it, folded from its run's log."""

    content: str
    tool_history: list[ToolHistoryEntry]
    running: list[ToolStart] = field(default_factory=list)
    """Calls started and not completed when the worker stopped (in order)."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """Tokens the answer used before the worker stopped: its model calls up to the last
    completed tool call (a call cut off midway reported none)."""
    reasoning: Reasoning | None = None
    """The model's reasoning the followers saw. The log keeps no times, so its seconds
    are 0: the taken-over answer counts only the reasoning timed after it."""
    parsed: ParsedReply | None = None
    """The cards, chips and actions the model wrote, as followers saw them (`reply_parts`)."""
    changes: dict[int, tuple[EntityChange, ...]] = field(default_factory=dict)
    """What each completed call changed in the app, by its index (its `tool_complete`'s)."""


def rebuild(
    entries: Iterable[tuple[int, str, bytes]],
    *,
    content: str = "",
    tool_history: Sequence[ToolHistoryEntry] = (),
    parsed: ParsedReply | None = None,
) -> Rebuilt:
    """Fold a run's events (`(seq, type, json)`) onto the answer stored before it: the text
    streamed, each completed call with the input of its start, its output, its card and
    its approval, the cards, chips and actions the model wrote, and the tokens used so far."""
    text = [content]
    thoughts: list[str] = []
    answer = Rebuilt(content="", tool_history=list(tool_history), parsed=parsed)
    for _seq, kind, data in entries:
        if kind == "text_delta":
            text.append(orjson.loads(data)["text"])
        elif kind == "reasoning":
            thoughts.append(orjson.loads(data)["text"])
        elif kind == "reply_parts":
            parts = decode_event(data)
            assert isinstance(parts, ReplyParts)
            answer.parsed = joined_parts(answer.parsed, _parsed(parts))
        elif kind == "tool_start":
            started = orjson.loads(data)
            answer.running.append(
                ToolStart(
                    tool=started["tool"],
                    input=started["input"],
                    tool_use_id=started["tool_use_id"],
                )
            )
        elif kind == "tool_complete":
            done = decode_event(data)
            assert isinstance(done, ToolComplete)
            _complete(answer, done)
    answer.content = "".join(text)
    answer.reasoning = Reasoning(text="".join(thoughts), seconds=0) if thoughts else None
    return answer


def _parsed(parts: ReplyParts) -> ParsedReply:
    return ParsedReply(
        message="",
        payloads=parts.payloads,
        suggested_values=parts.suggested_values or None,
        suggested_actions=parts.suggested_actions or None,
        warnings=parts.warnings,
    )


def _complete(answer: Rebuilt, done: ToolComplete) -> None:
    """Move the call `done` ends from the running ones to the tool history."""
    started = answer.running
    # Tools run one at a time, in order: the first open start of that tool.
    at = next((i for i, s in enumerate(started) if s.tool == done.tool), None)
    start = started.pop(at) if at is not None else None
    if done.changes:
        answer.changes[len(answer.tool_history)] = tuple(done.changes)
    answer.tool_history.append(
        ToolHistoryEntry(
            tool_name=done.tool,
            input=dict(start.input) if start is not None else {},
            output=done.output or "",
            is_error=done.is_error,
            tool_use_id=start.tool_use_id if start is not None else None,
            payload=done.payload,
            approval=done.approval,
            sources=done.sources or [],
        )
    )
    if done.usage is not None:
        u = done.usage
        answer.usage = TokenUsage(
            u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens
        )
