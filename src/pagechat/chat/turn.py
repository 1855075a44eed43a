"""One turn's run body, in named steps.

`TurnRunner.run` builds the model's messages, drives the agent loop and emits what the
user sees (`_on_event`, one case per kind): the loop's status, tool starts and progress
go to the run as they are; text goes through the reply parser and the coalescer; a
tool's result and the loop's end are folded into the run's `ToolComplete`, `Complete`,
`Error` or a pause. The turn ends in exactly one of four ways: completed, failed (the
model or provider said so), cancelled (Stop, or the server ended it), or crashed. Every
ending stores the answer folded from what the user saw.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, assert_never

from sqlalchemy.ext.asyncio import AsyncSession

from ..agent import (
    AgentApprovalRequested,
    AgentComplete,
    AgentError,
    AgentEvent,
    AgentToolComplete,
    LoopResume,
    run_agent_loop,
)
from ..events import (
    Complete,
    Error,
    ReasoningDelta,
    ReplyParts,
    RunEvent,
    Status,
    TextDelta,
    ToolComplete,
    ToolStart,
    ToolUpdate,
)
from ..identity import Principal
from ..models.base import FilePart, Model, ModelMessage, TokenUsage, UserTurn
from ..pages import ParsedReply, ReplyParser, TurnSetup, neutralize_tool_markers
from ..protocol import (
    PAYLOAD_ERROR,
    ApprovalPublic,
    ChatResponsePayload,
    CustomPayload,
    MessagePublic,
    Reasoning,
    Source,
    ToolHistoryEntry,
    Usage,
    tool_marker,
)
from ..runs import MOVED, Run
from ..store.base import AssistantRecord, ChatStore, RunFence, TurnIds
from ..tools.sources import answer_sources
from ..tools.types import ToolContext
from .checkpoints import Checkpointer
from .coalesce import TextCoalescer
from .config import ChatConfig
from .history import build_history, partial_turns
from .paused import Pauser, SavedTurn, ToolCard, cards_in
from .stored import unsaved, wait_stored
from .text import storable, storable_text

__all__ = ["TurnRunner", "TurnState", "joined_parts", "tool_context", "usage_of"]

logger = logging.getLogger(__name__)

_YIELD_EVERY = 0.001


@dataclass
class TurnState:
    """What the user has seen so far; what a stop or an error leaves stored."""

    ids: TurnIds
    setup: TurnSetup
    text: list[str] = field(default_factory=list)
    tool_history: list[ToolHistoryEntry] = field(default_factory=list)
    cards: list[ToolCard] = field(default_factory=list)
    """Where each tool card's marker stands in `text` (kept with a pause, for its replay)."""
    usage: TokenUsage = field(default_factory=TokenUsage)

    model: str | None = None
    """`provider/name` of the model answering."""
    question: str = ""
    """The user's words this answer is to (kept with a pause for approval)."""
    resume: LoopResume | None = None
    """Set when the turn goes on after a pause (chat/approvals.py)."""
    approvals: dict[str, ApprovalPublic] = field(default_factory=dict)
    """Decided approvals by tool_use_id, shown on their tool calls."""
    parsed: ParsedReply | None = None
    """What the reply parser took out of the answer so far (cards, chips, actions,
    warnings): what it starts from (after an approval pause, a takeover, a Continue),
    then all it took, as the user saw it (`ReplyParts`); stored with the answer."""
    joining: bool = False
    """A continued answer whose new text has not begun: its first words must not repeat
    the space the stored text ends with (the model goes on from a prefill without it)."""
    stored: asyncio.Future[Any] | None = None
    """The turn's first write, under way while the model starts (chat/stored.py)."""
    settle: Callable[[], Awaitable[None]] | None = None
    """Gives the turn's quota share back with the tokens it spent. Awaited just before the
    terminal event: a client that sees the end may start its next turn at once, and
    must find this one counted (the run's own `finally` calls it again, a no-op)."""
    writer: RunFence | None = None
    """The run storing this answer and its takeover epoch: the database refuses the
    writes of an owner older than the last one that wrote it (set by `TurnRunner`)."""
    thoughts: list[str] = field(default_factory=list)
    """The model's reasoning so far (its `ReasoningDelta`s), stored with the answer."""
    thought_span: list[float] = field(default_factory=list)
    """When the first and the last reasoning delta came (`time.monotonic`)."""
    thought_before: Reasoning | None = None
    """The reasoning of the turn before its approval pause (a resumed turn adds to it)."""

    def think(self, text: str) -> None:
        """Keep a piece of the model's reasoning, and when it came."""
        self.thoughts.append(text)
        now = time.monotonic()
        if self.thought_span:
            self.thought_span[1] = now
        else:
            self.thought_span[:] = [now, now]

    def reasoning(self) -> Reasoning | None:
        """The reasoning as stored with the answer: its text and how long it took."""
        before = self.thought_before
        if not self.thoughts:
            return before
        seconds = round(self.thought_span[-1] - self.thought_span[0], 1)
        if before is None:
            return Reasoning(text="".join(self.thoughts), seconds=seconds)
        text = before.text + "\n\n" + "".join(self.thoughts)
        return Reasoning(text=text, seconds=before.seconds + seconds)

    def sources(self) -> list[Source]:
        """The answer's sources so far, numbered, in order (`[n]` in its text cites n)."""
        return answer_sources(e.sources for e in self.tool_history)

    def took(self, parts: ParsedReply) -> None:
        """Add what the reply parser took out (after what it took before)."""
        self.parsed = joined_parts(self.parsed, parts)

    def go_on_from(
        self, content: str, tool_history: Sequence[ToolHistoryEntry], cards: Sequence[ToolCard]
    ) -> None:
        """Start from an answer so far (a paused or a stopped one): its tools numbered on."""
        self.text.append(content)
        self.tool_history.extend(tool_history)
        self.cards.extend(cards)

    def go_on_from_stored(self, answer: MessagePublic) -> None:
        """`go_on_from` a stored answer: its cards are only in its text, as the UI reads them."""
        self.go_on_from(
            answer.content, answer.tool_history, cards_in(answer.content, answer.tool_history)
        )
        # Its cards, chips and actions the model wrote: after its tools' cards when stored.
        from_tools = sum(1 for e in answer.tool_history if e.payload is not None)
        written = answer.payloads[from_tools:]
        if written or answer.suggested_values or answer.suggested_actions:
            self.took(
                ParsedReply(
                    message="",
                    payloads=list(written),
                    suggested_values=answer.suggested_values or None,
                    suggested_actions=answer.suggested_actions or None,
                )
            )

    def record(self, status: str, *, error: str | None = None) -> AssistantRecord:
        """The answer so far as a record to store, with `status` (and `error`): its text,
        its tool calls and the cards, chips and actions the model wrote, as shown."""
        parsed = self.parsed or ParsedReply(message="")
        return AssistantRecord(
            model=self.model,
            content="".join(self.text),
            status=status,  # type: ignore[arg-type]
            tool_history=list(self.tool_history),
            payloads=[
                *(e.payload for e in self.tool_history if e.payload is not None),
                *parsed.payloads,
            ],
            suggested_values=parsed.suggested_values,
            suggested_actions=parsed.suggested_actions,
            warnings=list(parsed.warnings),
            usage=usage_of(self.usage),
            error=error,
            context_audit=self.setup.context_text,
            writer=self.writer,
            reasoning=self.reasoning(),
            sources=self.sources(),
        )


class TurnRunner:
    """Drives one turn's agent loop inside its run and stores how it ended."""

    def __init__(
        self,
        *,
        run: Run,
        turn: TurnState,
        model: Model,
        store: ChatStore,
        config: ChatConfig,
        checkpoints: Checkpointer | None,
        context: ToolContext,
        approvals: Pauser | None = None,
        user: Principal | None = None,
    ) -> None:
        self.run_ = run
        self.approvals = approvals
        """Where a turn paused for approval waits; None: such tools are refused."""
        self.user = user
        self.turn = turn
        turn.writer = RunFence(run.id, run.epoch)
        self.model = model
        self.store = store
        self.config = config
        self.checkpoints = checkpoints
        self.context = context
        # Withholds payload markers while they stream and parses them; only the
        # model's own text goes through it, never tool output or the user's words.
        self.parser = ReplyParser(turn.setup)
        if turn.parsed is not None:
            self.parser.restore(turn.parsed)
        turn.model = f"{model.provider}/{model.name}"
        # Text waits at most a window while a burst is merged; every other event
        # goes out after the text before it (`_emit`), and a turn's end flushes it.
        self.deltas = TextCoalescer(self._show_now, window=config.coalesce_seconds)
        # Calls whose result is the answer's end (present_choices): shown when the turn ends.
        self._answers: list[ToolHistoryEntry] = []
        self._burst_start = 0.0
        self._last_delta = 0.0

    # --- the steps -----------------------------------------------------------

    @staticmethod
    def build_messages(
        *,
        earlier: Sequence[MessagePublic],
        question: str,
        setup: TurnSetup,
        budget: int,
        partial: MessagePublic | None = None,
        files: tuple[FilePart, ...] = (),
        earlier_files: Mapping[str, tuple[FilePart, ...]] | None = None,
    ) -> list[ModelMessage]:
        """Earlier turns within the budget (their files by message id from
        `earlier_files`), then the user's question with its `files`; to continue an
        answer, what it said so far as the assistant's unfinished turn (`continue_prompt`)."""
        history = build_history(
            earlier, budget=budget, native_tools=bool(setup.tools), files=earlier_files
        )
        messages: list[ModelMessage] = [
            *history,
            # The user's words are data too: a marker in them stays text even if echoed.
            UserTurn(setup.seal(question), files=files),
        ]
        if partial is not None:
            messages += partial_turns(partial, native_tools=bool(setup.tools))
        return messages

    async def run(self, messages: list[ModelMessage]) -> None:
        """Drive the agent loop over `messages`, emitting its events and storing the answer."""
        self.run_.emit(Status(message="Thinking..."))
        s = self.config
        try:
            async for event in run_agent_loop(
                model=self.model,
                system=self.turn.setup.system_prompt,
                cache_prefix=self.turn.setup.cache_prefix,
                messages=messages,
                tools=self.turn.setup.tools,
                context=self.context,
                max_iterations=s.max_iterations,
                max_tokens=s.max_tokens,
                temperature=s.temperature,
                retry=s.retry,
                seal=self.turn.setup.seal,
                resume=self.turn.resume,
                can_pause=self.approvals is not None,
                # A taken-over answer's tokens so far (chat/resume.py); else none yet.
                spent=self.turn.usage,
                # A resumed or continued answer's sources keep their numbers.
                sources=self.turn.sources(),
            ):
                # Text deltas are nearly every event: handled here, with no coroutine of
                # their own (the per-token hot path, docs/performance.md).
                if type(event) is TextDelta:
                    if self._on_text(event):
                        await asyncio.sleep(0)
                    continue
                await self._on_event(event)
        except asyncio.CancelledError:
            await self._cancelled()
            raise
        except Exception:
            logger.exception("chat turn failed")
            await self._crashed()
            raise
        finally:
            if self.checkpoints is not None:
                self.checkpoints.forget(self.turn.ids.assistant_message_id)

    async def _on_event(self, event: AgentEvent) -> None:
        """One agent event → what the user sees (one case per kind)."""
        # Text streams while the turn is being stored; nothing else goes before it.
        await wait_stored(self.run_, self.turn.stored)
        match event:
            case TextDelta():  # `run` takes these itself; here for completeness
                self._on_text(event)
            case ToolStart():
                self._show(self.parser.flush())
                if self.parser.fresh:
                    self._took()
                self._emit(replace(event, input=storable(event.input)))
            case ToolUpdate() | Status():
                self._emit(event)
            case ReasoningDelta():
                self.turn.think(event.text)
                self._emit(event)
            case AgentToolComplete():
                self._on_tool_complete(event)
            case AgentComplete():
                await self._completed(event)
            case AgentError():
                await self._failed(event)
            case AgentApprovalRequested():
                await self._paused(event)
            case _:
                assert_never(event)

    # --- what the user sees --------------------------------------------------

    def _show_now(self, text: str) -> None:
        self.turn.text.append(text)
        self.run_.emit_text(text)
        if self.checkpoints is not None:
            self.checkpoints.touch(self.turn.ids.assistant_message_id, self._snapshot)

    def _snapshot(self) -> AssistantRecord:
        return self.turn.record("running")

    def _show(self, text: str) -> None:
        self.deltas.add(text)

    def _emit(self, event: RunEvent) -> None:
        self.deltas.flush()
        self.run_.emit(event)

    def _took(self) -> None:
        """What the parser took out: kept with the turn and shown (the log holds it)."""
        parts = self.parser.take_new()
        if not (
            parts.payloads or parts.suggested_values or parts.suggested_actions or parts.warnings
        ):
            return
        self.turn.took(parts)
        self._emit(
            ReplyParts(
                payloads=parts.payloads,
                suggested_values=parts.suggested_values or [],
                suggested_actions=parts.suggested_actions or [],
                warnings=parts.warnings,
            )
        )

    def _flush_text(self) -> None:
        self._show(self.parser.flush())
        if self.parser.fresh:
            self._took()
        self.deltas.flush()
        if not self._answers:
            return
        for entry in self._answers:
            # After every card of the step, as the answer's last words (no marker: no card).
            so_far = "".join(self.turn.text)
            gap = "\n\n" if so_far.strip() and not so_far.endswith("\n\n") else ""
            self.turn.tool_history.append(entry)
            self._show_now(gap + entry.output)
        self._answers.clear()
        self.deltas.flush()

    def _on_text(self, event: TextDelta) -> bool:
        """Shows the delta; True when the turn should let the loop run others now."""
        text = self._joined(event.text) if self.turn.joining else event.text
        self._show(self.parser.feed(storable_text(text)))
        if self.parser.fresh:
            self._took()
        # An instant model (or a burst of buffered deltas) would hold the loop until
        # the turn ends: let readers and other runs in every millisecond or so, which
        # still lets readers batch their writes. A delta that comes long after the
        # last one was waited for, and others ran meanwhile: the burst starts over,
        # with no extra step. Not `loop.time()`: uvloop's stands still while a
        # callback runs, so a burst would never be seen to last (regression: with an
        # instant model the first event waited for the whole answer).
        now = time.monotonic()
        pause = False
        if now - self._last_delta > _YIELD_EVERY:
            self._burst_start = now
        elif now - self._burst_start > _YIELD_EVERY:
            self._burst_start = now
            pause = True
        self._last_delta = now
        return pause

    def _joined(self, text: str) -> str:
        """A continued answer's first text, without the space its stored part ends with."""
        so_far = "".join(self.turn.text)
        if so_far[-1:].isspace():
            text = text.lstrip()
        self.turn.joining = not text
        return text

    def _on_tool_complete(self, event: AgentToolComplete) -> None:
        turn = self.turn
        if event.in_answer:
            # Built from the model's own arguments, so no marker of a page is data here;
            # only tool markers are broken up, as in everything the model writes.
            shown = neutralize_tool_markers(storable_text(event.output))
            self._answers.append(
                ToolHistoryEntry(
                    tool_name=event.tool,
                    input=storable(event.input),
                    output=shown,
                    tool_use_id=event.tool_use_id,
                    in_answer=True,
                )
            )
            return
        index = len(turn.tool_history)
        output = turn.setup.seal(storable_text(event.output))
        turn.tool_history.append(
            ToolHistoryEntry(
                tool_name=event.tool,
                input=storable(event.input),
                output=output,
                is_error=event.is_error,
                tool_use_id=event.tool_use_id,
                payload=_tool_payload(storable(event.payload)),
                approval=turn.approvals.get(event.tool_use_id),
                sources=[_stored_source(s, turn.setup.seal) for s in event.sources],
            )
        )
        entry = turn.tool_history[-1]
        usage = usage_of(event.usage)
        # Its card and the tokens so far ride on the event: the run's log holds the whole
        # answer, for a worker that takes it over (chat/resume.py).
        self._emit(
            ToolComplete(
                tool=event.tool,
                index=index,
                is_error=event.is_error,
                output=output,
                payload=entry.payload,
                approval=entry.approval,
                usage=usage,
                changes=list(event.changes) or None,
                sources=entry.sources or None,
            )
        )
        # `_emit` showed all the text before it: the marker goes right after that.
        turn.cards.append(
            ToolCard(index=index, at=sum(map(len, turn.text)), changes=tuple(event.changes))
        )
        self._show(tool_marker(index))

    # --- how the turn ends -----------------------------------------------------

    async def _finish(self, record: AssistantRecord) -> None:
        if unsaved(self.turn.stored):
            return  # nothing was stored, so nothing is left half-done
        # Shielded so a second cancel cannot lose what the user saw.
        await asyncio.shield(
            self.store.finish_turn(
                assistant_message_id=self.turn.ids.assistant_message_id, record=record
            )
        )

    async def _completed(self, done: AgentComplete) -> None:
        self._flush_text()
        turn = self.turn
        turn.usage = done.usage
        parsed = self.parser.result()
        # The message is exactly the text the user saw stream, tool markers included.
        message = "".join(turn.text)
        tool_payloads = [e.payload for e in turn.tool_history if e.payload is not None]
        payloads = [*tool_payloads, *parsed.payloads]
        primary = _primary_payload(tool_payloads, parsed.payloads, turn.tool_history)
        warnings = list(parsed.warnings)
        window = self.model.context_window
        if window and done.last_input_tokens > self.config.context_warning_ratio * window:
            warnings.append(
                f"The conversation uses {done.last_input_tokens:,} of the model's {window:,} "
                "context tokens; start a new conversation soon."
            )
        usage = usage_of(done.usage)
        record = AssistantRecord(
            content=message,
            status="complete",
            tool_history=turn.tool_history,
            payloads=payloads,
            custom_payload=primary,
            suggested_values=parsed.suggested_values,
            suggested_actions=parsed.suggested_actions,
            usage=usage,
            warnings=warnings,
            context_audit=turn.setup.context_text,
            stop_reason=done.stop_reason,
            model=turn.model,
            writer=turn.writer,
            reasoning=turn.reasoning(),
            sources=turn.sources(),
        )
        await self.store.finish_turn(
            assistant_message_id=turn.ids.assistant_message_id, record=record
        )
        await self._settle()
        self.run_.emit(
            Complete(
                payload=ChatResponsePayload(
                    message=message,
                    suggested_values=parsed.suggested_values,
                    suggested_actions=parsed.suggested_actions,
                    custom_payload=primary,
                    payloads=payloads,
                    tool_history=turn.tool_history,
                    conversation_id=turn.ids.conversation_id,
                    message_id=turn.ids.assistant_message_id,
                    usage=usage,
                    warnings=warnings,
                    stop_reason=done.stop_reason,
                    reasoning=record.reasoning,
                    sources=record.sources,
                )
            )
        )

    async def _paused(self, event: AgentApprovalRequested) -> None:
        """A tool call waits for the user's approval (or the client's result): the turn is
        stored and the run ends."""
        approvals, user = self.approvals, self.user
        assert approvals is not None and user is not None  # the loop pauses only with them
        self._flush_text()
        turn = self.turn
        turn.usage = event.state.usage
        await self._settle()
        saved = SavedTurn(
            loop=event.state,
            context=self.context.page_context,
            message=turn.question,
            content="".join(turn.text),
            tool_history=tuple(turn.tool_history),
            cards=tuple(turn.cards),
            usage=turn.usage,
            parsed=self.parser.result(),
            reasoning=turn.reasoning(),
        )
        record = turn.record("needs_approval")
        await approvals.pause(
            self.run_,
            event,
            user=user,
            ids=turn.ids,
            saved=saved,
            finish=lambda: self.store.finish_turn(
                assistant_message_id=turn.ids.assistant_message_id, record=record
            ),
        )

    async def _failed(self, event: AgentError) -> None:
        self._flush_text()
        self.turn.usage = event.usage
        await self.store.finish_turn(
            assistant_message_id=self.turn.ids.assistant_message_id,
            record=self.turn.record("error", error=event.message),
        )
        await self._settle()
        self.run_.emit(Error(message=event.message, code=event.code))

    async def _settle(self) -> None:
        if self.turn.settle is not None:
            await asyncio.shield(self.turn.settle())

    async def _cancelled(self) -> None:
        self.deltas.flush()
        failure = self.run_.failure
        if failure is not None and failure.code == MOVED:
            return  # another worker goes on with it and stores it (chat/resume.py)
        if failure is None:
            record = self.turn.record("cancelled")
        else:  # the server ended it (shutdown, lost run log), not the user
            status = "interrupted" if failure.code == "interrupted" else "error"
            record = self.turn.record(status, error=failure.message)
        await self._finish(record)

    async def _crashed(self) -> None:
        self.deltas.flush()
        await self._finish(self.turn.record("error", error="The assistant failed unexpectedly."))


def joined_parts(before: ParsedReply | None, parts: ParsedReply) -> ParsedReply:
    """What the reply parser took out: `before`, then `parts` (no message)."""
    if before is None:
        return replace(parts, message="")
    return ParsedReply(
        message="",
        payloads=[*before.payloads, *parts.payloads],
        suggested_values=[*(before.suggested_values or []), *(parts.suggested_values or [])]
        or None,
        suggested_actions=[*(before.suggested_actions or []), *(parts.suggested_actions or [])]
        or None,
        warnings=[*before.warnings, *parts.warnings],
    )


def _primary_payload(
    tool_payloads: list[CustomPayload],
    written: list[CustomPayload],
    tool_history: list[ToolHistoryEntry],
) -> CustomPayload | None:
    """The turn's primary payload: the model's proposal first (a tool's card never buries it),
    else the last tool payload; never an error card (it shows in the answer)."""
    shown = [p for p in written if p.type != PAYLOAD_ERROR]
    if shown:
        return shown[0]
    from_tools = [p for p in tool_payloads if p.type != PAYLOAD_ERROR]
    if from_tools:
        return from_tools[-1]
    cards = [e for e in tool_history if not e.in_answer]
    if cards:
        return CustomPayload(type="tool_history", data=[e.model_dump(mode="json") for e in cards])
    return None


def _stored_source(source: Source, seal: Callable[[str], str]) -> Source:
    """A tool's source as stored and shown: storable text, sealed as its output is (no
    marker in a title can be copied into a reply); its id and url as they are."""
    update = {
        name: seal(storable_text(getattr(source, name))) for name in ("title", "detail", "snippet")
    }
    return source.model_copy(update=update)


def _tool_payload(payload: dict[str, object] | None) -> CustomPayload | None:
    if payload is None:
        return None
    try:
        return CustomPayload.model_validate(payload)
    except ValueError:
        logger.warning("tool payload without a valid {type, data} shape ignored")
        return None


def tool_context(
    *,
    user: Principal,
    run: Run,
    turn: TurnState,
    context: dict[str, Any],
    session: AsyncSession | None,
) -> ToolContext:
    """The `ToolContext` a tool of this turn gets: the user, the run, the page, the session."""
    return ToolContext(
        user_id=user.id,
        is_admin=user.is_admin,
        conversation_id=turn.ids.conversation_id,
        run_id=run.id,
        page_context=context,
        session=session,
    )


def usage_of(tokens: TokenUsage) -> Usage:
    """A turn's token counts as the wire and the store tell them."""
    return Usage(
        input_tokens=tokens.input_tokens,
        output_tokens=tokens.output_tokens,
        cache_read_tokens=tokens.cache_read_tokens,
        cache_write_tokens=tokens.cache_write_tokens,
    )
