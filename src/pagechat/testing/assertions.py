"""Assertions on a turn's events that say what went wrong in the words of the protocol."""

from __future__ import annotations

from collections.abc import Sequence

from ..protocol import ChatResponsePayload, CompleteEvent
from .sse import Frame

__all__ = [
    "assert_event_types",
    "completed_payload",
    "event_types",
    "streamed_text",
]


def event_types(frames: Sequence[Frame]) -> list[str]:
    """The `type` of each frame, in order."""
    return [f.type for f in frames]


def streamed_text(frames: Sequence[Frame]) -> str:
    """The text the user saw stream: every `text_delta`, joined (markers included)."""
    return "".join(f.event["text"] for f in frames if f.type == "text_delta")


def assert_event_types(frames: Sequence[Frame], expected: Sequence[str]) -> None:
    """The frames' types, with consecutive `text_delta`s counted as one.

    How many deltas a reply is streamed in depends on timing (they are merged in
    bursts), so a test states the shape: `["text_delta", "tool_start", ...]`.
    """
    collapsed: list[str] = []
    for kind in event_types(frames):
        if not (kind == "text_delta" and collapsed and collapsed[-1] == "text_delta"):
            collapsed.append(kind)
    assert collapsed == list(expected), f"event types {collapsed} != expected {list(expected)}"


def completed_payload(frames: Sequence[Frame]) -> ChatResponsePayload:
    """The payload of the turn's `complete` event, which must be its last event."""
    assert frames, "the stream sent no event"
    last = frames[-1].parsed
    assert isinstance(last, CompleteEvent), f"the turn ended with {frames[-1].event}, not complete"
    return last.payload
