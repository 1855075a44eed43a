"""Keeping the model from forging `[[tool:N]]` markers.

The server writes `[[tool:N]]` into the stream after each tool call; the UI
turns every match of `\\[\\[tool:(\\d+)\\]\\]` into a tool card. Text the model
writes must never match, so a zero-width space goes between its two brackets:
the user still reads `[[tool:3]]`, the UI's pattern no longer sees one.
"""

from __future__ import annotations

import re

__all__ = ["ToolMarkerGuard", "neutralize_tool_markers"]

_START = "[[tool:"
_BREAK = "\u200b"
_PATTERN = re.compile(r"\[(?=\[tool:)")


def neutralize_tool_markers(text: str) -> str:
    """`text` with every `[[tool:` broken up so no tool marker can match."""
    return _PATTERN.sub("[" + _BREAK, text)


class ToolMarkerGuard:
    """`neutralize_tool_markers` for text that arrives in pieces.

    The joined output of `feed`s and the final `flush` equals
    `neutralize_tool_markers` of the joined input, however it was split: a tail
    that could still become `[[tool:` (at most six characters) waits for the
    next piece.
    """

    def __init__(self) -> None:
        self._held = ""

    def feed(self, text: str) -> str:
        buf = self._held + text
        keep = _partial_tail(buf)
        self._held = buf[len(buf) - keep :]
        return neutralize_tool_markers(buf[: len(buf) - keep])

    def flush(self) -> str:
        held, self._held = self._held, ""
        return held


def _partial_tail(text: str) -> int:
    """Length of the longest end of `text` that is a proper beginning of `[[tool:`."""
    for size in range(min(len(_START) - 1, len(text)), 0, -1):
        if text.endswith(_START[:size]):
            return size
    return 0
