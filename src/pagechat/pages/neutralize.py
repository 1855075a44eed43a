"""Keeping markers out of text that is not the model's own.

The server writes `[[tool:N]]` into the stream after each tool call; the UI
turns every match of `\\[\\[tool:(\\d+)\\]\\]` into a tool card. Text the model
writes must never match, so a zero-width space goes between its two brackets:
the user still reads `[[tool:3]]`, the UI's pattern no longer sees one.

Data is broken up the same way before the model reads it (tool results, the page
context, the user's message): payload markers (`SUGGESTED_VALUES:`, a page's
`SCHEMA_PROPOSAL:`), ```` ```choices ```` fences and tool markers. A model that
copies an article title holding `SUGGESTED_ACTIONS: [...]` then copies text the
reply parser does not see as a marker: data never becomes buttons.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["ToolMarkerGuard", "escape_block", "neutralize_markers", "neutralize_tool_markers"]

_START = "[[tool:"
_BREAK = "\u200b"
_PATTERN = re.compile(r"\[(?=\[tool:)")


_FENCE = re.compile(r"`(?=``[ \t]*choices)", re.IGNORECASE)


def neutralize_tool_markers(text: str) -> str:
    """`text` with every `[[tool:` broken up so no tool marker can match."""
    return _PATTERN.sub("[" + _BREAK, text)


def neutralize_markers(text: str, markers: Iterable[str]) -> str:
    """`text` with every marker of `markers`, every tool marker and every ```` ```choices ````
    fence broken up by a zero-width space, so none of them can match as written."""
    text = neutralize_tool_markers(text)
    for marker in markers:
        if marker and marker in text:
            text = text.replace(marker, marker[0] + _BREAK + marker[1:])
    return _FENCE.sub("`" + _BREAK, text)


def escape_block(text: str) -> str:
    """Data for inside a `<tag>...</tag>` block of the prompt: `&`, `<` and `>` as entities,
    so no value can close the block (`</page_context>`) or open another one."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ToolMarkerGuard:
    """`neutralize_tool_markers` for text that arrives in pieces.

    The joined output of `feed`s and the final `flush` equals
    `neutralize_tool_markers` of the joined input, however it was split: a tail
    that could still become `[[tool:` (at most six characters) waits for the
    next piece.
    """

    def __init__(self) -> None:
        self._held = ""

    @property
    def idle(self) -> bool:
        """Nothing held: a piece without `[` passes unchanged."""
        return not self._held

    def feed(self, text: str) -> str:
        """The text safe to pass on now; a tail that may start a marker is held back."""
        buf = self._held + text
        keep = _partial_tail(buf)
        self._held = buf[len(buf) - keep :]
        return neutralize_tool_markers(buf[: len(buf) - keep])

    def flush(self) -> str:
        """At the end of the text: what was held back."""
        held, self._held = self._held, ""
        return held


def _partial_tail(text: str) -> int:
    """Length of the longest end of `text` that is a proper beginning of `[[tool:`."""
    for size in range(min(len(_START) - 1, len(text)), 0, -1):
        if text.endswith(_START[:size]):
            return size
    return 0
