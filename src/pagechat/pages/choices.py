"""Finding ```` ```choices ```` blocks in a message and checking them.

A block is a fenced code block whose language (the info string's first word) is
`choices`, found by the same fence rules the UI's markdown renderer applies.
A valid one holds a JSON object with a non-empty `question` and 2 to 4
`options`, each with a non-empty `label` and `value`; the UI renders it as
buttons. Anything else stays an ordinary code block. Nothing is rewritten.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeGuard

from .fences import Fence, closes_fence, fence_opener

__all__ = ["ChoiceBlock", "ChoiceOption", "find_choice_blocks"]


@dataclass(frozen=True)
class ChoiceOption:
    """One button of a ```` ```choices ```` block: the label shown and the value sent."""

    label: str
    value: str


@dataclass(frozen=True)
class ChoiceBlock:
    """One ```` ```choices ```` block; `text[start:end]` is the block, fences included."""

    question: str
    options: tuple[ChoiceOption, ...]
    start: int
    end: int
    valid: bool
    error: str | None = None


def find_choice_blocks(text: str) -> list[ChoiceBlock]:
    """Every ```` ```choices ```` block of `text` in order, valid or not."""
    blocks: list[ChoiceBlock] = []
    fence: Fence | None = None
    opened_at = body_start = 0
    pos = 0
    while pos <= len(text):
        newline = text.find("\n", pos)
        line_end = len(text) if newline < 0 else newline
        line = text[pos:line_end]
        if fence is None:
            fence = fence_opener(line)
            opened_at, body_start = pos, line_end + 1
        elif closes_fence(line, fence):
            if _language(fence) == "choices":
                blocks.append(_block(text[body_start:pos], opened_at, line_end))
            fence = None
        if newline < 0:
            break
        pos = newline + 1
    if fence is not None and _language(fence) == "choices":
        blocks.append(ChoiceBlock("", (), opened_at, len(text), False, "the block is not closed"))
    return blocks


def _language(fence: Fence) -> str:
    return fence.info.split()[0] if fence.info else ""


def _block(body: str, start: int, end: int) -> ChoiceBlock:
    try:
        data: Any = json.loads(body, strict=False)
    except (ValueError, RecursionError):
        return ChoiceBlock("", (), start, end, False, "the block is not valid JSON")
    if not isinstance(data, dict):
        return ChoiceBlock("", (), start, end, False, "the block is not a JSON object")
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        return ChoiceBlock("", (), start, end, False, "the question is missing")
    raw = data.get("options")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
        return ChoiceBlock(question, (), start, end, False, "there must be 2 to 4 options")
    options: list[ChoiceOption] = []
    for number, item in enumerate(raw, 1):
        label = item.get("label") if isinstance(item, dict) else None
        value = item.get("value") if isinstance(item, dict) else None
        if not (_filled(label) and _filled(value)):
            error = f"option {number} needs a non-empty label and value"
            return ChoiceBlock(question, (), start, end, False, error)
        options.append(ChoiceOption(label, value))
    return ChoiceBlock(question, tuple(options), start, end, True)


def _filled(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and bool(value.strip())
