"""Markdown fenced code blocks, line by line (CommonMark's rules, the parts we need).

Markers inside a code block are an example, not a payload, and ```` ```choices ````
blocks are found by the same rules the UI's markdown renderer applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Fence", "closes_fence", "fence_opener", "starts_fence"]

_OPENER = re.compile(r" {0,3}(`{3,}|~{3,})")
_CLOSER = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*\r?")


@dataclass(frozen=True, slots=True)
class Fence:
    """An open code fence: its character, its length, and its info string."""

    char: str
    length: int
    info: str


def starts_fence(line_prefix: str) -> bool:
    """Whether a line beginning with `line_prefix` is a fence opener (as far as can be told)."""
    return _OPENER.match(line_prefix) is not None


def fence_opener(line: str) -> Fence | None:
    """The fence a whole line (without its newline) opens, or None."""
    match = _OPENER.match(line)
    if match is None:
        return None
    run = match.group(1)
    info = line[match.end() :].strip()
    if run[0] == "`" and "`" in info:
        return None  # CommonMark: that is inline code, not a fence
    return Fence(run[0], len(run), info)


def closes_fence(line: str, fence: Fence) -> bool:
    """Whether a whole line (without its newline) closes `fence`."""
    match = _CLOSER.fullmatch(line)
    if match is None:
        return False
    run = match.group(1)
    return run[0] == fence.char and len(run) >= fence.length
