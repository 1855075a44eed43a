"""What the offline model knows when it is called, read from the `ModelRequest` alone.

* the ask: the last user turn's text, and the files it carries (a paper's PDF, ...);
* the page, tab and page state: the page-context block of the system prompt
  (`pagechat.pages.page_context_in`), written by Horizon's pages in the
  `horizon.page_text` format;
* the payloads the page offers this turn: their markers in the system prompt
  (outside the page context, so page data cannot offer one);
* the tools it may call: `request.tools` (none when `tool_choice` is "none");
* what it did so far this turn: the tool calls after the last user turn, with
  their results.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from pagechat.models import AssistantTurn, FilePart, ModelRequest, ToolResultsTurn, UserTurn
from pagechat.pages import page_context_in

from ..page_text import PageText, read_page_text
from ..payloads import ALL_SHAPES, PayloadShape

MAX_ROUNDS = 4
"""Tool-call rounds per turn; after that the model answers with what it has."""


@dataclass(frozen=True)
class Done:
    """A tool call made earlier in this turn, and its result."""

    name: str
    input: dict[str, Any]
    text: str
    is_error: bool


@dataclass(frozen=True)
class Call:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Step:
    """What to write now, and the tools to call after it (none: the answer is final)."""

    text: str
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class Situation:
    message: str
    page: PageText
    tools: frozenset[str]
    markers: frozenset[str]
    done: tuple[Done, ...] = ()
    may_call: bool = True
    files: tuple[FilePart, ...] = ()

    @property
    def page_name(self) -> str:
        return self.page.page or ""

    def can_call(self, name: str) -> bool:
        return self.may_call and name in self.tools

    def offers(self, shape: PayloadShape) -> bool:
        return shape.marker in self.markers

    def last(self, name: str) -> Done | None:
        return next((d for d in reversed(self.done) if d.name == name), None)

    def results(self, name: str) -> list[Done]:
        return [d for d in self.done if d.name == name]

    def without_calls(self) -> Situation:
        return replace(self, may_call=False)


def read_situation(request: ModelRequest) -> Situation:
    messages = list(request.messages)
    start = max((i for i, m in enumerate(messages) if isinstance(m, UserTurn)), default=-1)
    last = messages[start] if start >= 0 else None
    message = last.text if isinstance(last, UserTurn) else ""
    turn = messages[start + 1 :]
    context = page_context_in(request.system)
    outside = request.system.replace(context, "") if context else request.system
    rounds = sum(1 for m in turn if isinstance(m, AssistantTurn) and m.tool_calls)
    return Situation(
        message=message,
        page=read_page_text(context),
        tools=frozenset(t.name for t in request.tools),
        markers=frozenset(s.marker for s in ALL_SHAPES if s.marker in outside),
        done=tuple(_done(turn)),
        may_call=request.tool_choice == "auto" and rounds < MAX_ROUNDS,
        files=last.files if isinstance(last, UserTurn) else (),
    )


def _done(turn: list[Any]) -> list[Done]:
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    found: list[Done] = []
    for message in turn:
        if isinstance(message, AssistantTurn):
            calls.update({c.id: (c.name, c.input) for c in message.tool_calls})
        elif isinstance(message, ToolResultsTurn):
            for result in message.results:
                name, given = calls.get(result.tool_use_id, ("", {}))
                found.append(Done(name, given, result.content, result.is_error))
    return found


def suggestions(values: list[tuple[str, str]]) -> str:
    """A SUGGESTED_VALUES line ("" for none): (label, value) chips, at most four."""
    if not values:
        return ""
    chips = [{"label": label, "value": value} for label, value in values[:4]]
    return "SUGGESTED_VALUES: " + json.dumps(chips, ensure_ascii=False)


def actions(items: list[dict[str, Any]]) -> str:
    """A SUGGESTED_ACTIONS line ("" for none)."""
    return "SUGGESTED_ACTIONS: " + json.dumps(items, ensure_ascii=False) if items else ""


def compose(*parts: str) -> str:
    """Paragraphs and marker lines, one blank line apart, empty parts left out."""
    return "\n\n".join(p.strip("\n") for p in parts if p.strip())
