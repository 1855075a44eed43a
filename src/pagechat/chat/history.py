"""What the model is shown of earlier turns: the newest that fit a budget.

Stored assistant messages carry `[[tool:N]]` markers that only the UI
understands; the model gets a short note of each tool call instead, with long
outputs cut, so old tool results do not crowd out the conversation. What the
answer proposed (each payload's content, compact) and what the user did with its card
(accepted, rejected, closed, or moved on without acting) follow that answer. Turns are
taken newest first until the budget is spent — never the oldest first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .. import defaults
from ..models.base import (
    AssistantTurn,
    FilePart,
    ModelMessage,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    UserTurn,
)
from ..protocol import PAYLOAD_ERROR, TOOL_MARKER, MessagePublic, ToolHistoryEntry
from ..tools.sources import with_sources

__all__ = [
    "DEFAULT_HISTORY_BUDGET",
    "PAYLOAD_CHARS",
    "TOOL_OUTPUT_CHARS",
    "build_history",
    "partial_text",
    "partial_turns",
]

DEFAULT_HISTORY_BUDGET = defaults.HISTORY_BUDGET
"""Characters of earlier conversation sent with each turn."""

TOOL_OUTPUT_CHARS = 600
_IMAGE_CHARS = 2_000
"""What an image counts for against the history budget."""
_STATUS_NOTES = {
    "cancelled": "\n\n(The user stopped this answer here.)",
    "error": "\n\n(This answer was cut short by an error.)",
    "interrupted": "\n\n(This answer was interrupted.)",
}
_DECISION_NOTES = {
    "accepted": "\n\n(The user accepted the proposed {type}.)",
    "rejected": "\n\n(The user rejected the proposed {type}.)",
    "dismissed": "\n\n(The user closed the {type} card without accepting it.)",
}
_PAYLOAD_TYPE_CHARS = 64
PAYLOAD_CHARS = 400
"""Of a proposal's JSON in the history: enough to know what was proposed."""
_IGNORED_NOTE = "\n\n(The user did not act on the proposed {type} and went on.)"


def _tool_note(entry: ToolHistoryEntry) -> str:
    output = entry.output
    if len(output) > TOOL_OUTPUT_CHARS:
        rest = len(entry.output) - TOOL_OUTPUT_CHARS
        output = f"{output[:TOOL_OUTPUT_CHARS]}… [{rest} more characters]"
    state = "failed" if entry.is_error else "returned"
    args = json.dumps(entry.input, ensure_ascii=False)[:300]
    return f"\n[Tool {entry.tool_name}({args}) {state}: {output}]\n"


def partial_text(msg: MessagePublic) -> str:
    """An answer's text as the model wrote it so far: tool markers become notes of the
    calls, and nothing is added after it (the model goes on from its last word)."""

    def _replace(match: re.Match[str]) -> str:
        index = int(match.group(1))
        if index < len(msg.tool_history):
            return _tool_note(msg.tool_history[index])
        return ""

    return TOOL_MARKER.sub(_replace, msg.content)


def _assistant_text(msg: MessagePublic, *, answered: bool) -> str:
    text = partial_text(msg).strip()
    notes = _STATUS_NOTES.get(msg.status, "") + _proposal_notes(msg)
    return text + notes + _decision_note(msg, answered=answered)


def _proposal_notes(msg: MessagePublic) -> str:
    """What the answer proposed: each payload the model wrote, its JSON cut to a size.

    Tool payloads are left out: the tool's note already says what it returned.
    """
    from_tools = [e.payload for e in msg.tool_history if e.payload is not None]
    proposed = [p for p in msg.payloads if p not in from_tools and p.type != "tool_history"]
    primary = msg.custom_payload
    if (
        primary is not None
        and primary.type != "tool_history"
        and primary not in (*from_tools, *proposed)
    ):
        proposed.insert(0, primary)
    notes = []
    for payload in proposed:
        if payload.type == PAYLOAD_ERROR and isinstance(payload.data, dict):
            kind = str(payload.data.get("payload_type", ""))[:_PAYLOAD_TYPE_CHARS]
            reason = str(payload.data.get("reason", ""))[:200]
            notes.append(f"\n\n(The {kind} written here could not be shown to the user: {reason})")
            continue
        data = json.dumps(payload.data, ensure_ascii=False, separators=(",", ":"))
        if len(data) > PAYLOAD_CHARS:
            data = f"{data[:PAYLOAD_CHARS]}… [{len(data) - PAYLOAD_CHARS} more characters]"
        notes.append(f"\n\n(Proposed {payload.type[:_PAYLOAD_TYPE_CHARS]}: {data})")
    return "".join(notes)


def _decision_note(msg: MessagePublic, *, answered: bool) -> str:
    """What the user did with the answer's card, from the stored decision alone.

    Only the server sets `payload_decision` (one of three values, through its own route),
    and the note goes into the assistant's turn: no text a user types can produce it.
    A card left undecided while the user went on (`answered`) was ignored.
    """
    if msg.custom_payload is None or msg.custom_payload.type == "tool_history":
        return ""
    kind = msg.custom_payload.type[:_PAYLOAD_TYPE_CHARS]
    if msg.payload_decision is None:
        return _IGNORED_NOTE.format(type=kind) if answered else ""
    return _DECISION_NOTES[msg.payload_decision].format(type=kind)


_NO_TEXT = "(The tool results above were the answer.)"
_MARKERS = re.compile(rf"(?:\s*{TOOL_MARKER.pattern})+\s*")
"""A run of markers with nothing but space between them: the calls of one model step."""


def _native_turns(msg: MessagePublic, *, answered: bool) -> list[ModelMessage] | None:
    """An answer with tool calls in the providers' own tool-use form: each step's text and
    calls, then their results (outputs cut as in the notes), then the final text and notes.
    None when the stored markers do not name its tool calls one by one, in order."""
    steps = _native_steps(msg)
    if steps is None:
        return None
    turns, start = steps
    notes = _STATUS_NOTES.get(msg.status, "") + _proposal_notes(msg)
    final = (msg.content[start:].strip() + notes + _decision_note(msg, answered=answered)).strip()
    turns.append(AssistantTurn(final or _NO_TEXT))
    return turns


def partial_turns(msg: MessagePublic, *, native_tools: bool) -> list[ModelMessage]:
    """An answer cut short (Stop, an interruption, `max_tokens`), for the model to go on
    with: its completed tool calls with their stored results in the tool-use form, so none
    runs again, then the text written after them as the unfinished assistant turn (none
    when it stopped right after a result). Without native tools, the whole answer as text
    with notes of the calls (`partial_text`)."""
    steps = _native_steps(msg) if native_tools and msg.tool_history else None
    if steps is None:
        return [AssistantTurn(partial_text(msg), partial=True)]
    turns, start = steps
    rest = msg.content[start:].lstrip()
    return [*turns, AssistantTurn(rest, partial=True)] if rest.strip() else turns


def _native_steps(msg: MessagePublic) -> tuple[list[ModelMessage], int] | None:
    """The tool-use steps of an answer and where its text after them begins; None when the
    stored markers do not name its tool calls one by one, in order, or it has none."""
    history = msg.tool_history
    cards = [i for i, e in enumerate(history) if not e.in_answer]
    turns: list[ModelMessage] = []
    start = 0
    expected = 0  # how many of `cards` the markers so far named
    for group in _MARKERS.finditer(msg.content):
        indices = [int(i) for i in TOOL_MARKER.findall(group.group(0))]
        if indices != cards[expected : expected + len(indices)]:
            return None
        expected += len(indices)
        calls, results = [], []
        for index in indices:
            entry = history[index]
            call_id = _call_id(msg, entry, index)
            output = entry.output
            if len(output) > TOOL_OUTPUT_CHARS:
                rest = len(output) - TOOL_OUTPUT_CHARS
                output = f"{output[:TOOL_OUTPUT_CHARS]}… [{rest} more characters]"
            # Its sources as numbered in that answer, so the answer's `[n]` still name them.
            output = with_sources(output, entry.sources, snippets=False)
            calls.append(ToolCallPart(call_id, entry.tool_name, dict(entry.input)))
            results.append(ToolResultPart(call_id, output or "(no output)", entry.is_error))
        turns.append(AssistantTurn(msg.content[start : group.start()].strip(), tuple(calls)))
        turns.append(ToolResultsTurn(tuple(results)))
        start = group.end()
    if expected != len(cards):
        return None
    answered_by_tool = _answer_step(msg, start)
    if answered_by_tool is None:
        return None
    if answered_by_tool:
        turns.extend(answered_by_tool[:2])
        start = answered_by_tool[2]
    if not turns:
        return None
    return turns, start


_SHOWN = "(Shown to the user as the end of this answer.)"


def _call_id(msg: MessagePublic, entry: ToolHistoryEntry, index: int) -> str:
    # Earlier answers stored without ids get stable ones of their own.
    return entry.tool_use_id or f"hist_{msg.id}_{index}"


def _answer_step(msg: MessagePublic, start: int) -> tuple[Any, ...] | None:
    """The last step when tool results were the answer's end (`in_answer`, present_choices):
    (its calls, their results, where the shown results begin); () when there are none;
    None when the text does not end with them as they were shown."""
    shown = [(i, e) for i, e in enumerate(msg.tool_history) if e.in_answer]
    if not shown:
        return ()
    at = msg.content.find(shown[0][1].output, start)
    end = at
    for _, entry in shown:
        found = msg.content.find(entry.output, end)
        if at < 0 or found < 0:
            return None
        end = found + len(entry.output)
    calls = tuple(ToolCallPart(_call_id(msg, e, i), e.tool_name, dict(e.input)) for i, e in shown)
    results = tuple(ToolResultPart(c.id, _SHOWN, False) for c in calls)
    return (
        AssistantTurn(msg.content[start:at].strip(), calls),
        ToolResultsTurn(results),
        at,
    )


def _as_turn(
    msg: MessagePublic, *, answered: bool = False, files: tuple[FilePart, ...] = ()
) -> ModelMessage | None:
    if msg.role == "user":
        if msg.attachments and not files:
            # Files beyond those the model gets again: it reads that they were there.
            names = ", ".join(a.name for a in msg.attachments)
            return UserTurn(f"{msg.content}\n[Files sent with this message: {names}]".strip())
        return UserTurn(msg.content, files=files)
    if msg.role == "action":
        # The stored outcome, not what was hoped: a failed action is told as failed.
        if msg.status == "error":
            return UserTurn(f"[An action the user ran from the chat failed: {msg.content}]")
        return UserTurn(f"[Action applied from the chat: {msg.content}]")
    if msg.status == "running":
        return None
    text = _assistant_text(msg, answered=answered)
    return AssistantTurn(text) if text else None


def _size(turn: ModelMessage) -> int:
    if isinstance(turn, UserTurn):
        # An image counts as a short text would: its tokens are not characters.
        return len(turn.text) + sum(len(f.text) or _IMAGE_CHARS for f in turn.files)
    if isinstance(turn, AssistantTurn):
        return len(turn.text) + sum(len(json.dumps(c.input)) + len(c.name) for c in turn.tool_calls)
    return sum(len(r.content) for r in turn.results)


def build_history(
    messages: Sequence[MessagePublic],
    *,
    budget: int = DEFAULT_HISTORY_BUDGET,
    native_tools: bool = True,
    files: Mapping[str, tuple[FilePart, ...]] | None = None,
) -> list[ModelMessage]:
    """Earlier messages (oldest first) → model turns, newest first within `budget` characters.

    `files` are the user messages' files the model gets again, by message id (the rest
    are named in their message's text).

    With `native_tools`, earlier tool calls and results go in the providers' tool-use form
    (a provider may refuse tool-use blocks in a request that offers no tools: pass False
    then, and they are told as notes in the text). The result starts with a user turn, as
    providers require.
    """
    picked: list[ModelMessage] = []
    spent = 0
    answered = False  # a user message came after this one: its card was passed over
    for msg in reversed(messages):
        native = (
            _native_turns(msg, answered=answered)
            if native_tools
            and msg.role == "assistant"
            and msg.tool_history
            and msg.status != "running"
            else None
        )
        if native is not None:
            answered = answered or msg.role == "user"
            size = sum(_size(t) for t in native)
            if picked and spent + size > budget:
                break
            if picked or size <= budget:
                picked.extend(reversed(native))
                spent += size
                continue
            # Alone over budget: told as text below, which keeps its end.
        turn = _as_turn(msg, answered=answered, files=(files or {}).get(msg.id, ()))
        answered = answered or msg.role == "user"
        if turn is None:
            continue
        size = _size(turn)
        if picked and spent + size > budget:
            break
        if not picked and size > budget:
            # The newest turn alone is over budget: keep its end, which is what the user last saw.
            text = turn.text[-budget:] if isinstance(turn, UserTurn | AssistantTurn) else ""
            turn = UserTurn(text) if isinstance(turn, UserTurn) else AssistantTurn(text)
            size = len(text)
        picked.append(turn)
        spent += size
    picked.reverse()
    while picked and not isinstance(picked[0], UserTurn):
        picked.pop(0)
    return picked
