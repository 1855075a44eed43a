"""Going on with an answer whose worker stopped: the chat side of a takeover.

A run is started with a resume recipe (`recipe`: who asked, the page context, the
question, the answer's ids and, for Continue, the part stored before the run), kept
in the run's Redis metadata. When its worker stops, another claims the run
(runs/takeover.py) and calls `AnswerTakeover.take_over` with the run's whole event log. The
answer so far is rebuilt from that log exactly as followers saw it (`rebuild.py`), stored
at once, and continued in the same run by Continue's mechanism (`history.partial_turns`):
completed tool calls go back to the model with their results from the log, never run
again; the text after them is the assistant's unfinished turn (a prefill, or a request
to continue), and `TurnState.joining` keeps the join free of a doubled space.

A call that was running when the worker stopped is run again only if its tool is
`safe_to_repeat` and needs no approval; otherwise the model gets a truthful result: the
outcome is unknown (or, for a call needing approval, that calling it again asks the user
again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import orjson
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..events import Status, ToolComplete, ToolStart
from ..identity import Principal
from ..models.base import ModelMessage, TokenUsage
from ..pages import ParsedReply, TurnSetup, prepare_turn
from ..protocol import (
    CustomPayload,
    MessagePublic,
    ToolHistoryEntry,
    tool_marker,
)
from ..runs import Claim, Run, interrupted_event
from ..store.base import AssistantRecord, ChatStore, RunFence, TurnIds
from ..store.tables import utcnow
from ..tools.execute import execute_tool
from ..tools.sources import SourceNumbers
from ..tools.types import ToolConfig, ToolResult
from .config import ChatConfig
from .paused import ToolCard, cards_in, parsed_from, parsed_json
from .rebuild import Rebuilt, rebuild
from .text import storable, storable_text
from .turn import TurnRunner, TurnState, tool_context, usage_of

RunTurn = Callable[[Run, TurnState, Principal, dict[str, Any], list[ModelMessage]], Awaitable[None]]
"""Drives a turn's agent loop in a run (`ChatService._run`)."""
Settler = Callable[[Principal, str, TurnState, int], Callable[[], Awaitable[None]] | None]
"""Makes a turn's `TurnState.settle` (`ChatService._settler`): the user, the run, the
turn, and the tokens of it already counted."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnParts:
    """What the chat service lends a takeover: its store, config and sessions, and how it
    loads a user, drives a turn and settles its quota share. Passed in, so this module
    does not import the service that imports it."""

    store: ChatStore
    config: ChatConfig
    sessions: async_sessionmaker[AsyncSession] | None
    load_user: Callable[[str], Awaitable[Principal | None]]
    run_turn: RunTurn
    settler: Settler


__all__ = [
    "ASK_AGAIN_RESULT",
    "RESUMING_STATUS",
    "UNKNOWN_OUTCOME_RESULT",
    "AnswerTakeover",
    "TurnParts",
    "recipe",
]

logger = logging.getLogger(__name__)

RESUMING_STATUS = "Resuming the answer..."
UNKNOWN_OUTCOME_RESULT = (
    "This call's outcome is unknown: the server running it stopped before it finished, "
    "and it was not run again because it may have changed something. Do not assume it "
    "succeeded or failed; tell the user, who can check and ask for it again."
)
ASK_AGAIN_RESULT = (
    "This call did not finish: the server running it stopped, and it was not run again "
    "because it needs the user's approval. Calling it again asks the user again."
)


def recipe(
    *,
    user: Principal,
    ids: TurnIds,
    question: str,
    context: dict[str, Any],
    base: TurnState | None = None,
    charged: TokenUsage | None = None,
    first: bool = False,
) -> bytes:
    """How another worker goes on with this turn's answer (`Run.resume`). `base`: the part
    of the answer stored before this run (Continue), which its log does not hold;
    `charged`: tokens of the answer an earlier run already counted against the user's
    quota (a turn resumed after approval); `first`: the turn began its conversation, so a
    takeover has no earlier turns to read."""
    return orjson.dumps(
        {
            "v": 1,
            "user": user.id,
            "conversation": ids.conversation_id,
            "message": ids.assistant_message_id,
            "question": question,
            "context": context,
            "content": "".join(base.text) if base is not None else "",
            "tools": [e.model_dump(mode="json") for e in base.tool_history] if base else [],
            "parsed": parsed_json(base.parsed) if base is not None and base.parsed else None,
            "charged": charged.input_tokens + charged.output_tokens if charged else 0,
            "first": first,
        },
        default=str,
    )


class AnswerTakeover:
    """The chat service's `TakeoverHook`: rebuilds a claimed run's answer and goes on."""

    def __init__(self, parts: TurnParts) -> None:
        self._parts = parts

    async def take_over(self, run: Run, claim: Claim) -> None:
        """The body of a claimed run: the answer so far stored, then continued here."""
        service = self._parts
        spec = claim.resume
        user = await service.load_user(spec["user"]) if service.sessions is not None else None
        if user is None:
            run.emit(interrupted_event())
            await self.store_ended(claim, interrupted_event())
            return
        context: dict[str, Any] = spec.get("context") or {}
        setup = prepare_turn(
            context, is_admin=user.is_admin, base_instructions=service.config.base_instructions
        )
        rebuilt = _rebuilt(claim)
        ids = TurnIds(spec["conversation"], "", spec["message"])
        turn = TurnState(ids, setup, question=spec.get("question", ""))
        turn.text.append(rebuilt.content)
        turn.tool_history.extend(rebuilt.tool_history)
        turn.thought_before = rebuilt.reasoning
        # The turn's parser goes on from the cards and chips already shown.
        turn.parsed = rebuilt.parsed
        # Counted in by the loop (`spent`): the stored answer sums both workers' tokens.
        turn.usage = rebuilt.usage
        # Its writes fenced by this claim's epoch: the stopped owner's, if it was only
        # slow, no longer land (store/turn_rows.py).
        turn.writer = RunFence(run.id, run.epoch)
        run.emit(Status(message=RESUMING_STATUS))
        # A completed call's marker may not have streamed yet: it is the card's place.
        for index in range(len(spec.get("tools") or []), len(turn.tool_history)):
            if tool_marker(index) not in "".join(turn.text):
                _show(run, turn, tool_marker(index))
        # Where each card stands, and what its call changed: a pause later replays them.
        turn.cards.extend(
            replace(card, changes=rebuilt.changes.get(card.index, ()))
            for card in cards_in("".join(turn.text), turn.tool_history)
        )
        for start in rebuilt.running:
            await self._settle_call(run, turn, start, user=user, context=context)
        # What the followers saw is what is stored, before the model is asked again.
        await service.store.checkpoint_turns({ids.assistant_message_id: turn.record("running")})
        # A conversation's first turn has nothing before its question: no read (a
        # takeover's one fixed cost a new answer does not have, docs/performance.md).
        earlier = (
            []
            if spec.get("first")
            else await service.store.history(
                user=user, conversation_id=ids.conversation_id, leaf_id=ids.assistant_message_id
            )
        )
        if earlier and earlier[-1].role == "user":
            earlier.pop()  # the question, sent again as the turn's own
        so_far = "".join(turn.text)
        partial = (
            MessagePublic(
                id=ids.assistant_message_id,
                role="assistant",
                content=so_far,
                status="interrupted",
                created_at=utcnow(),
                tool_history=turn.tool_history,
            )
            if so_far.strip()
            else None
        )
        messages = TurnRunner.build_messages(
            earlier=earlier,
            question=turn.question,
            setup=setup,
            budget=service.config.history_budget,
            partial=partial,
        )
        turn.joining = partial is not None
        # The stopped worker admitted the turn and cannot give its share back: done here,
        # with the answer's tokens but those an earlier run already counted (`_settler`).
        turn.settle = service.settler(user, run.id, turn, int(spec.get("charged") or 0))
        try:
            await service.run_turn(run, turn, user, context, messages)
        finally:
            if turn.settle is not None:
                await asyncio.shield(turn.settle())

    async def _settle_call(
        self,
        run: Run,
        turn: TurnState,
        start: ToolStart,
        *,
        user: Principal,
        context: dict[str, Any],
    ) -> None:
        """A call that was running when the worker stopped: run again when it is safe,
        else a truthful result; either way its card completes and the model reads it."""
        tool = _tool(turn.setup, start.tool)
        params = dict(start.input)
        if tool is not None and tool.safe_to_repeat and tool.approval_needed(params) is None:
            result = await self._run_again(run, turn, tool, params, user=user, context=context)
        elif tool is not None and tool.approval_needed(params) is not None:
            result = ToolResult(ASK_AGAIN_RESULT, is_error=True)
        else:
            result = ToolResult(UNKNOWN_OUTCOME_RESULT, is_error=True)
        index = len(turn.tool_history)
        output = turn.setup.seal(storable_text(result.text))
        numbered = SourceNumbers(turn.sources()).number(result.sources)
        turn.tool_history.append(
            ToolHistoryEntry(
                tool_name=start.tool,
                input=storable(params),
                output=output,
                is_error=result.is_error,
                tool_use_id=start.tool_use_id,
                payload=_payload(result.payload),
                sources=numbered,
            )
        )
        entry = turn.tool_history[-1]
        usage = usage_of(turn.usage)
        run.emit(
            ToolComplete(
                tool=start.tool,
                index=index,
                is_error=result.is_error,
                output=output,
                payload=entry.payload,
                usage=usage,
                sources=numbered or None,
                changes=list(result.changes) or None,
            )
        )
        turn.cards.append(
            ToolCard(index=index, at=sum(map(len, turn.text)), changes=tuple(result.changes))
        )
        _show(run, turn, tool_marker(index))

    async def _run_again(
        self,
        run: Run,
        turn: TurnState,
        tool: ToolConfig,
        params: dict[str, Any],
        *,
        user: Principal,
        context: dict[str, Any],
    ) -> ToolResult:
        sessions = self._parts.sessions
        assert sessions is not None  # a takeover needs the database (its user)
        async with sessions() as session:
            ctx = tool_context(user=user, run=run, turn=turn, context=context, session=session)
            result = ToolResult("The tool returned nothing.", is_error=True)
            async for item in execute_tool(tool, params, ctx):
                if isinstance(item, ToolResult):
                    result = item
            return result

    async def store_ended(self, claim: Claim, error: Any) -> None:
        """A run ended instead of taken over: its answer stored as its followers saw it,
        `interrupted` (Continue goes on from there)."""
        spec = claim.resume
        store = self._parts.store
        if not spec.get("message"):
            await store.mark_interrupted(run_ids=[claim.run_id])
            return
        rebuilt = _rebuilt(claim)
        written = rebuilt.parsed or ParsedReply(message="")
        record = AssistantRecord(
            content=rebuilt.content,
            status="interrupted",
            tool_history=rebuilt.tool_history,
            payloads=[
                *(e.payload for e in rebuilt.tool_history if e.payload is not None),
                *written.payloads,
            ],
            suggested_values=written.suggested_values,
            suggested_actions=written.suggested_actions,
            warnings=list(written.warnings),
            usage=usage_of(rebuilt.usage),
            reasoning=rebuilt.reasoning,
            error=str(getattr(error, "message", "")) or None,
            # The run has ended in Redis: no owner of it writes after this one.
            writer=RunFence(claim.run_id, claim.takeovers),
        )
        await store.finish_turn(assistant_message_id=spec["message"], record=record)


def _rebuilt(claim: Claim) -> Rebuilt:
    spec = claim.resume
    base: list[ToolHistoryEntry] = []
    for raw in spec.get("tools") or []:
        try:
            base.append(ToolHistoryEntry.model_validate(raw))
        except ValidationError:
            logger.warning("a stored tool call of run %s could not be read", claim.run_id)
    parsed = spec.get("parsed")
    return rebuild(
        claim.entries,
        content=spec.get("content", ""),
        tool_history=base,
        parsed=parsed_from(parsed) if isinstance(parsed, dict) else None,
    )


def _show(run: Run, turn: TurnState, text: str) -> None:
    turn.text.append(text)
    run.emit_text(text)


def _tool(setup: TurnSetup, name: str) -> ToolConfig | None:
    return next((t for t in setup.tools if t.name == name), None)


def _payload(payload: dict[str, Any] | None) -> CustomPayload | None:
    if payload is None:
        return None
    try:
        return CustomPayload.model_validate(storable(payload))
    except ValueError:
        return None
