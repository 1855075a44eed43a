"""A paused turn's saved state, and what its resumption starts from.

A turn pauses before a tool call that waits for the user's approval or for the client
to run it (chat/approvals.py). What it needs to go on is a `SavedTurn`: the loop's own
state (`agent.pause.LoopState`: the messages, the calls of the step), and the turn's —
the answer so far, its tool calls and where each card's `[[tool:N]]` stands in it, the
tokens spent, what the reply parser took out, the page context. It is stored as JSON in
the `approvals` row; `SavedTurn.to_json` writes it and `SavedTurn.from_json` reads it back,
rows written before `cards` was kept included.

A turn pauses through a `Pauser` (chat/approvals.Approvals). A decision claimed on any
worker makes a `PausedTurn`; whoever resumes it (a `Resumer`, ChatService.resume_turn)
replays the answer so far from it (`replay_events`) and goes on. These two protocols are
all the turn and the service see of each other's side of a pause.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..agent import AgentApprovalRequested, LoopResume, LoopState
from ..events import (
    ApprovalResolved,
    ReplyParts,
    RunEvent,
    TextDelta,
    ToolComplete,
    ToolStart,
)
from ..identity import Principal
from ..models.base import TokenUsage
from ..pages import ParsedReply
from ..protocol import (
    CustomPayload,
    EntityChange,
    Reasoning,
    SuggestedAction,
    SuggestedValue,
    ToolHistoryEntry,
    Usage,
    tool_marker,
)
from ..runs import Run
from ..store.approvals import ClaimedApproval
from ..store.base import TurnIds
from ..tools.types import ToolConfig, ToolResult

__all__ = [
    "PausedTurn",
    "Pauser",
    "Resumer",
    "SavedTurn",
    "ToolCard",
    "cards_in",
    "frontend_result",
    "parsed_from",
    "parsed_json",
    "replay_events",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCard:
    """A tool call's card in the answer: its `tool_marker(index)` starts at `at`."""

    index: int
    """The call's position in the turn's `tool_history` (the N of `[[tool:N]]`)."""
    at: int
    """Where its marker starts in the answer's text, in characters."""
    changes: tuple[EntityChange, ...] = ()
    """What the call changed in the app (its `tool_complete`'s), told again by a replay."""


def cards_in(content: str, tool_history: Sequence[ToolHistoryEntry]) -> tuple[ToolCard, ...]:
    """The cards of a text whose numbering was not kept: a stored message, or a saved
    state written before `cards` was. Each call's marker is the first after the one
    before it; a call with none (its result is the answer's text) has no card."""
    cards: list[ToolCard] = []
    start = 0
    for index in range(len(tool_history)):
        marker = tool_marker(index)
        at = content.find(marker, start)
        if at == -1:
            continue
        cards.append(ToolCard(index=index, at=at))
        start = at + len(marker)
    return tuple(cards)


@dataclass(frozen=True, slots=True, kw_only=True)
class SavedTurn:
    """Everything a paused turn needs to go on, as stored in its `approvals` row."""

    loop: LoopState
    context: dict[str, Any]
    """The page context the turn ran with."""
    message: str
    """The user's words the answer is to."""
    content: str
    """The answer so far, as the user saw it stream (tool markers included)."""
    tool_history: tuple[ToolHistoryEntry, ...] = ()
    cards: tuple[ToolCard, ...] = ()
    """Where each card stands in `content`, in order."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    parsed: ParsedReply | None = None
    """What the reply parser took out of the answer so far (payloads, chips)."""
    reasoning: Reasoning | None = None
    """The model's reasoning so far, shown and stored with the answer; the resumed turn's
    adds to it."""

    def to_json(self) -> dict[str, Any]:
        """The state as plain JSON, for `approvals.state`."""
        state: dict[str, Any] = {
            "loop": self.loop.to_json(),
            "context": self.context,
            "message": self.message,
            "content": self.content,
            "tool_history": [e.model_dump(mode="json") for e in self.tool_history],
            "usage": self.usage.as_list(),
            "cards": [_card_json(c) for c in self.cards],
        }
        if self.parsed is not None:
            state["parsed"] = parsed_json(self.parsed)
        if self.reasoning is not None:
            state["reasoning"] = self.reasoning.model_dump(mode="json")
        return state

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SavedTurn:
        """The state `to_json` wrote; a row stored before `parsed` or `cards` were kept
        reads as one without what the parser took out, its cards found in the text."""
        content = str(data["content"])
        history = tuple(ToolHistoryEntry.model_validate(e) for e in data["tool_history"])
        stored_cards = data.get("cards")
        cards = (
            tuple(_card_from(c) for c in stored_cards)
            if isinstance(stored_cards, list)
            else cards_in(content, history)
        )
        usage = data["usage"]
        parsed = data.get("parsed")
        return cls(
            loop=LoopState.from_json(data["loop"]),
            context=dict(data["context"]),
            message=str(data["message"]),
            content=content,
            tool_history=history,
            cards=cards,
            usage=TokenUsage.from_list(usage),
            parsed=parsed_from(parsed) if isinstance(parsed, dict) else None,
            reasoning=Reasoning.model_validate(data["reasoning"]) if "reasoning" in data else None,
        )


def _card_json(card: ToolCard) -> dict[str, Any]:
    data: dict[str, Any] = {"index": card.index, "at": card.at}
    if card.changes:
        data["changes"] = [c.model_dump(mode="json") for c in card.changes]
    return data


def _card_from(data: dict[str, Any]) -> ToolCard:
    changes = tuple(EntityChange.model_validate(c) for c in data.get("changes") or [])
    return ToolCard(index=int(data["index"]), at=int(data["at"]), changes=changes)


def parsed_json(parsed: ParsedReply) -> dict[str, Any]:
    """What the reply parser took out, as plain JSON (a saved turn's, a resume recipe's)."""
    return {
        "payloads": [p.model_dump(mode="json") for p in parsed.payloads],
        "values": [v.model_dump(mode="json") for v in parsed.suggested_values or []],
        "actions": [a.model_dump(mode="json") for a in parsed.suggested_actions or []],
        "warnings": list(parsed.warnings),
    }


def parsed_from(data: dict[str, Any]) -> ParsedReply:
    """What `parsed_json` wrote."""
    return ParsedReply(
        message="",
        payloads=[CustomPayload.model_validate(p) for p in data["payloads"]],
        suggested_values=[SuggestedValue.model_validate(v) for v in data["values"]],
        suggested_actions=[SuggestedAction.model_validate(a) for a in data["actions"]],
        warnings=[str(w) for w in data["warnings"]],
    )


def frontend_result(claimed: ClaimedApproval) -> ToolResult | None:
    """What the model reads for a resumed frontend tool call; None for an approval."""
    if claimed.kind != "frontend_tool":
        return None
    result = claimed.result
    if claimed.approval.status == "approved" and result is not None:
        return ToolResult(str(result.get("text", "")), is_error=bool(result.get("is_error")))
    return ToolResult(
        f"The client did not return a result of {claimed.approval.tool} in time; it may or "
        "may not have run. Tell the user, and do not assume what it did.",
        is_error=True,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class PausedTurn:
    """A paused turn whose decision (or client result) this worker won: what it goes on from."""

    claimed: ClaimedApproval
    saved: SavedTurn
    resume: LoopResume
    """The loop's state and the decision on the call it waits for."""

    @classmethod
    def of(cls, claimed: ClaimedApproval) -> PausedTurn:
        """The claimed row's saved state, with its decision (or result) for the loop."""
        saved = SavedTurn.from_json(claimed.state)
        approval = claimed.approval
        resume = LoopResume(
            saved.loop,
            approval.status == "approved",
            approval.note,
            result=frontend_result(claimed),
        )
        return cls(claimed=claimed, saved=saved, resume=resume)


class Pauser(Protocol):
    """Where a turn pauses (chat/approvals.Approvals): the one way the turn reaches it."""

    async def pause(
        self,
        run: Run,
        event: AgentApprovalRequested,
        *,
        user: Principal,
        ids: TurnIds,
        saved: SavedTurn,
        finish: Callable[[], Awaitable[None]],
    ) -> None:
        """Keep `saved` until the call is decided, `finish` storing the answer, and tell
        the client (`approval_requested`)."""
        ...


class Resumer(Protocol):
    """Starts the run that goes on with a paused turn (ChatService.resume_turn): the one
    way pause and resume reach the chat service."""

    async def __call__(
        self,
        user: Principal,
        paused: PausedTurn,
        run_id: str,
        *,
        extra_tools: Sequence[ToolConfig] = (),
    ) -> Run:
        """The run started; `extra_tools`: the client's, when its result resumes the turn."""
        ...


def replay_events(paused: PausedTurn) -> list[RunEvent]:
    """The answer so far as events, then the decision: a resumed run's log starts with
    them, so a client following it from the start folds the whole answer."""
    saved = paused.saved
    content = saved.content
    events: list[RunEvent] = []
    start = 0
    # The tokens so far ride on the last card, as the loop's own would: a takeover of the
    # resumed run counts them (chat/resume.py).
    tokens = saved.usage
    usage = Usage(
        input_tokens=tokens.input_tokens,
        output_tokens=tokens.output_tokens,
        cache_read_tokens=tokens.cache_read_tokens,
        cache_write_tokens=tokens.cache_write_tokens,
    )
    for number, card in enumerate(saved.cards, 1):
        entry = saved.tool_history[card.index]
        marker = tool_marker(card.index)
        if card.at > start:
            events.append(TextDelta(text=content[start : card.at]))
        events.append(
            ToolStart(tool=entry.tool_name, input=entry.input, tool_use_id=entry.tool_use_id or "")
        )
        events.append(
            ToolComplete(
                tool=entry.tool_name,
                index=card.index,
                is_error=entry.is_error,
                output=entry.output,
                payload=entry.payload,
                approval=entry.approval,
                usage=usage if number == len(saved.cards) else None,
                changes=list(card.changes) or None,
            )
        )
        events.append(TextDelta(text=marker))
        start = card.at + len(marker)
    if start < len(content):
        events.append(TextDelta(text=content[start:]))
    parsed = saved.parsed
    if parsed is not None and (
        parsed.payloads or parsed.suggested_values or parsed.suggested_actions or parsed.warnings
    ):
        # What the model wrote besides its text before the pause, as it was shown then.
        events.append(
            ReplyParts(
                payloads=list(parsed.payloads),
                suggested_values=list(parsed.suggested_values or []),
                suggested_actions=list(parsed.suggested_actions or []),
                warnings=list(parsed.warnings),
            )
        )
    approval = paused.claimed.approval
    events.append(
        ApprovalResolved(approval_id=approval.id, status=approval.status, note=approval.note)
    )
    return events
