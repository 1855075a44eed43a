"""One chat turn, from request to stored message.

`ChatService.start` stores the user message, assembles the prompt for the
page, and starts a run whose body drives the agent loop. Every event the user
sees goes through `Run.emit`; the same events are folded into the stored
assistant message, so a reloaded conversation renders like the live one.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from opentelemetry.trace import Tracer
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .. import defaults
from ..agent import (
    AgentApprovalRequested,
    AgentComplete,
    AgentError,
    AgentTextDelta,
    AgentThinking,
    AgentToolComplete,
    AgentToolProgress,
    AgentToolStart,
    LoopResume,
    run_agent_loop,
)
from ..identity import Principal
from ..models.base import Model, TokenUsage, UserTurn
from ..models.retry import RetryPolicy
from ..pages import DEFAULT_BASE_INSTRUCTIONS, ReplyParser, TurnSetup, prepare_turn
from ..protocol import (
    ApprovalPublic,
    ChatRequest,
    ChatResponsePayload,
    CompleteEvent,
    CustomPayload,
    ErrorEvent,
    MessagePublic,
    StatusEvent,
    StreamEvent,
    TextDeltaEvent,
    ToolCompleteEvent,
    ToolHistoryEntry,
    ToolProgressEvent,
    ToolStartEvent,
    Usage,
)
from ..quotas import Quotas
from ..runs import Draining, Run, RunManager, RunObserver
from ..store.base import AssistantRecord, ChatStore, TurnIds
from ..store.users import get_user, principal_of
from ..tools.types import ToolContext
from ..tracing import RunTracer
from .approvals import ApprovalPending, Approvals, PausedTurn, replay_events
from .checkpoints import Checkpointer
from .coalesce import DEFAULT_WINDOW, TextCoalescer
from .history import DEFAULT_HISTORY_BUDGET, build_history
from .text import storable, storable_text

__all__ = ["ChatConfig", "ChatService"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChatConfig:
    max_iterations: int = defaults.MAX_ITERATIONS
    max_tokens: int = defaults.MAX_TOKENS
    temperature: float | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    base_instructions: str = DEFAULT_BASE_INSTRUCTIONS
    history_budget: int = DEFAULT_HISTORY_BUDGET
    context_warning_ratio: float = 0.7
    """Warn in the `complete` payload when the prompt passes this share of the context window."""
    checkpoint_seconds: float | None = defaults.CHECKPOINT_SECONDS
    """How often running answers are saved, so a killed process keeps them; None: never."""
    coalesce_seconds: float = DEFAULT_WINDOW
    """Text deltas within this window of the last text event are merged into one (0: never)."""
    approval_timeout_seconds: float | None = 900.0
    """A tool call waiting for the user's approval is denied after this long (None: never)."""


@dataclass
class _Turn:
    """What the user has seen so far; what a stop or an error leaves stored."""

    ids: TurnIds
    setup: TurnSetup
    text: list[str] = field(default_factory=list)
    tool_history: list[ToolHistoryEntry] = field(default_factory=list)
    usage: TokenUsage = field(default_factory=TokenUsage)
    resume: LoopResume | None = None
    """Set when the turn goes on after an approval (chat/approvals.py)."""
    approvals: dict[str, ApprovalPublic] = field(default_factory=dict)
    """Decided approvals by tool_use_id, shown on their tool calls."""

    def record(self, status: str, *, error: str | None = None) -> AssistantRecord:
        return AssistantRecord(
            content="".join(self.text),
            status=status,  # type: ignore[arg-type]
            tool_history=list(self.tool_history),
            payloads=[e.payload for e in self.tool_history if e.payload is not None],
            usage=Usage(
                input_tokens=self.usage.input_tokens, output_tokens=self.usage.output_tokens
            ),
            error=error,
            context_audit=self.setup.context_text,
        )


ModelSource = Model | Callable[[], Model]

_YIELD_EVERY = 0.001


class ChatService:
    def __init__(
        self,
        *,
        model: ModelSource,
        store: ChatStore,
        runs: RunManager,
        config: ChatConfig | None = None,
        sessions: async_sessionmaker[AsyncSession] | None = None,
        tracer: Tracer | None = None,
        quotas: Quotas | None = None,
    ) -> None:
        self._model = model
        self.quotas = quotas
        """Per-user limits on turns; None: unlimited (tests, embedded use)."""
        self._tracer = tracer
        self.store = store
        self.runs = runs
        self.config = config or ChatConfig()
        self.sessions = sessions
        """Where tools get `ToolContext.session`: one session per run, closed when it ends."""
        seconds = self.config.checkpoint_seconds
        self._checkpoints = (
            Checkpointer(store, interval=seconds) if seconds is not None and seconds > 0 else None
        )
        self.approvals = (
            Approvals(sessions, timeout_seconds=self.config.approval_timeout_seconds)
            if sessions is not None
            else None
        )
        """Where paused turns wait for approval; without a database a tool that needs
        approval is refused (the model is told)."""

    def open(self) -> None:
        """At start-up: deny the approvals whose time is up, now and from then on."""
        if self.approvals is not None:
            self.approvals.start(self.resume_turn, self._load_user)

    async def _load_user(self, user_id: str) -> Principal | None:
        assert self.sessions is not None
        async with self.sessions() as session:
            row = await get_user(session=session, user_id=user_id)
        return None if row is None else principal_of(row)

    async def aclose(self) -> None:
        """After the runs have stopped: no more checkpoints."""
        if self.approvals is not None:
            await self.approvals.aclose()
        if self._checkpoints is not None:
            await self._checkpoints.aclose()

    @property
    def model(self) -> Model:
        return self._model if isinstance(self._model, Model) else self._model()

    async def start(self, *, user: Principal, request: ChatRequest) -> Run:
        """Store the user message and start the run.

        Raises ConversationNotFound, QuotaExceeded (before anything is stored), and
        Draining when the server is shutting down.
        """
        if self.runs.draining:
            raise Draining("The server is restarting; try again in a moment.")
        setup = prepare_turn(
            request.context, is_admin=user.is_admin, base_instructions=self.config.base_instructions
        )
        run_id = uuid.uuid4().hex
        quotas = self.quotas
        if quotas is not None:
            await quotas.admit(user, run_id, request.message)
        try:
            earlier = (
                await self.store.history(user=user, conversation_id=request.conversation_id)
                if request.conversation_id
                else []
            )
            # After the ownership check above: another user's conversation stays a 404.
            if (
                self.approvals is not None
                and request.conversation_id is not None
                and await self.approvals.has_pending(request.conversation_id)
            ):
                raise ApprovalPending("Approve or deny the pending request first.")
            ids = await self.store.begin_turn(
                user=user,
                conversation_id=request.conversation_id,
                message=request.message,
                run_id=run_id,
            )
        except BaseException:
            if quotas is not None:
                await quotas.release(user.id, run_id, tokens=0)
            raise
        turn = _Turn(ids, setup)

        async def body(run: Run) -> None:
            try:
                await self._run(run, turn, user, request, earlier)
            finally:
                if quotas is not None:
                    spent = turn.usage.input_tokens + turn.usage.output_tokens
                    await asyncio.shield(quotas.release(user.id, run_id, tokens=spent))

        observers: list[RunObserver] = []
        if self._tracer is not None:
            model = self.model
            observers.append(
                RunTracer(
                    self._tracer,
                    run_id=run_id,
                    conversation_id=ids.conversation_id,
                    provider=model.provider,
                    model=model.name,
                )
            )
        return self.runs.start(
            owner_id=user.id,
            conversation_id=ids.conversation_id,
            body=body,
            run_id=run_id,
            observers=observers,
        )

    async def resume_turn(self, user: Principal, paused: PausedTurn, run_id: str) -> Run:
        """Go on with a turn paused for approval, in the run `run_id` (chat/approvals.py).

        The run first replays the answer so far, so it folds like one run. It is not
        admitted against quotas again: the turn was, when it started.
        """
        claimed = paused.claimed
        setup = prepare_turn(
            paused.context, is_admin=user.is_admin, base_instructions=self.config.base_instructions
        )
        ids = TurnIds(claimed.conversation_id, "", claimed.message_id)
        turn = _Turn(ids, setup, resume=paused.resume)
        turn.text.append(paused.content)
        turn.tool_history.extend(paused.tool_history)
        turn.usage = TokenUsage(paused.usage.input_tokens, paused.usage.output_tokens)
        turn.approvals[claimed.tool_use_id] = claimed.approval
        request = ChatRequest.model_construct(
            message=paused.message, context=paused.context, conversation_id=ids.conversation_id
        )

        async def body(run: Run) -> None:
            for event in replay_events(paused):
                run.emit(event)
            await self._run(run, turn, user, request, [])

        return self.runs.start(
            owner_id=user.id, conversation_id=ids.conversation_id, body=body, run_id=run_id
        )

    async def _run(
        self,
        run: Run,
        turn: _Turn,
        user: Principal,
        request: ChatRequest,
        earlier: list[MessagePublic],
    ) -> None:
        if self.sessions is None:
            await self._turn(run, turn, None, user, request, earlier)
            return
        # Tools commit their own writes; whatever they left uncommitted is rolled back.
        async with self.sessions() as session:
            await self._turn(run, turn, session, user, request, earlier)

    async def _turn(
        self,
        run: Run,
        turn: _Turn,
        session: AsyncSession | None,
        user: Principal,
        request: ChatRequest,
        earlier: list[MessagePublic],
    ) -> None:
        ids, setup = turn.ids, turn.setup
        ctx = ToolContext(
            user_id=user.id,
            is_admin=user.is_admin,
            conversation_id=ids.conversation_id,
            run_id=run.id,
            page_context=request.context,
            session=session,
        )
        messages = [
            *build_history(
                earlier, budget=self.config.history_budget, native_tools=bool(setup.tools)
            ),
            # The user's words are data too: a marker in them stays text even if echoed.
            UserTurn(setup.seal(request.message)),
        ]
        # Withholds payload markers while they stream and parses them; only the
        # model's own text goes through it, never tool output or the user's words.
        parser = ReplyParser(setup)
        model = self.model
        run.emit(StatusEvent(message="Thinking..."))
        burst_start = last_delta = 0.0

        checkpoints = self._checkpoints
        message_id = ids.assistant_message_id

        def snapshot() -> AssistantRecord:
            return turn.record("running")

        def show_now(text: str) -> None:
            turn.text.append(text)
            run.emit(TextDeltaEvent(text=text))
            if checkpoints is not None:
                checkpoints.touch(message_id, snapshot)

        # Text waits at most a window while a burst is merged; every other event
        # goes out after the text before it (`emit`), and a turn's end flushes it.
        deltas = TextCoalescer(show_now, window=self.config.coalesce_seconds)
        show = deltas.add

        def emit(event: StreamEvent) -> None:
            deltas.flush()
            run.emit(event)

        try:
            async for event in run_agent_loop(
                model=model,
                system=setup.system_prompt,
                messages=messages,
                tools=setup.tools,
                context=ctx,
                max_iterations=self.config.max_iterations,
                max_tokens=self.config.max_tokens,
                temperature=self.config.temperature,
                retry=self.config.retry,
                seal=setup.seal,
                resume=turn.resume,
                can_pause=self.approvals is not None,
            ):
                if isinstance(event, AgentTextDelta):
                    show(parser.feed(storable_text(event.text)))
                    # An instant model (or a burst of buffered deltas) would hold the
                    # loop until the turn ends: let readers and other runs in every
                    # millisecond or so, which still lets readers batch their writes.
                    # A delta that comes long after the last one was waited for, and
                    # others ran meanwhile: the burst starts over, with no extra step.
                    # Not `loop.time()`: uvloop's stands still while a callback runs,
                    # so a burst would never be seen to last (regression: with an
                    # instant model the first event waited for the whole answer).
                    now = time.monotonic()
                    if now - last_delta > _YIELD_EVERY:
                        burst_start = now
                    elif now - burst_start > _YIELD_EVERY:
                        burst_start = now
                        await asyncio.sleep(0)
                    last_delta = now
                elif isinstance(event, AgentToolStart):
                    show(parser.flush())
                    emit(
                        ToolStartEvent(
                            tool=event.tool_name,
                            input=storable(event.tool_input),
                            tool_use_id=event.tool_use_id,
                        )
                    )
                elif isinstance(event, AgentToolProgress):
                    progress = (
                        None if event.progress is None else min(1.0, max(0.0, event.progress))
                    )
                    emit(
                        ToolProgressEvent(
                            tool=event.tool_name,
                            stage=event.stage,
                            message=event.message,
                            progress=progress,
                            data=event.data,
                        )
                    )
                elif isinstance(event, AgentToolComplete):
                    index = len(turn.tool_history)
                    output = setup.seal(storable_text(event.result_text))
                    turn.tool_history.append(
                        ToolHistoryEntry(
                            tool_name=event.tool_name,
                            input=storable(event.tool_input),
                            output=output,
                            is_error=event.is_error,
                            tool_use_id=event.tool_use_id,
                            payload=_tool_payload(storable(event.payload)),
                            approval=turn.approvals.get(event.tool_use_id),
                        )
                    )
                    emit(
                        ToolCompleteEvent(
                            tool=event.tool_name,
                            index=index,
                            is_error=event.is_error,
                            output=output,
                        )
                    )
                    show(f"[[tool:{index}]]")
                elif isinstance(event, AgentThinking):
                    emit(StatusEvent(message=event.message))
                elif isinstance(event, AgentComplete):
                    show(parser.flush())
                    deltas.flush()
                    turn.usage = event.usage
                    await self._complete(run, turn, model, event, parser)
                elif isinstance(event, AgentApprovalRequested) and self.approvals is not None:
                    show(parser.flush())
                    deltas.flush()
                    turn.usage = event.state.usage
                    await self.approvals.pause(
                        run,
                        event,
                        user=user,
                        conversation_id=ids.conversation_id,
                        message_id=ids.assistant_message_id,
                        request_message=request.message,
                        context=request.context,
                        record=turn.record("needs_approval"),
                        finish=lambda record: self.store.finish_turn(
                            assistant_message_id=ids.assistant_message_id, record=record
                        ),
                    )
                elif isinstance(event, AgentError):
                    show(parser.flush())
                    deltas.flush()
                    turn.usage = event.usage
                    await self.store.finish_turn(
                        assistant_message_id=ids.assistant_message_id,
                        record=turn.record("error", error=event.message),
                    )
                    run.emit(ErrorEvent(message=event.message, code=event.kind))
        except asyncio.CancelledError:
            # Keep what the user saw; shielded so a second cancel cannot lose it.
            deltas.flush()
            failure = run.failure
            if failure is None:
                record = turn.record("cancelled")
            else:  # the server ended it (shutdown, lost run log), not the user
                status = "interrupted" if failure.code == "interrupted" else "error"
                record = turn.record(status, error=failure.message)
            await asyncio.shield(
                self.store.finish_turn(assistant_message_id=ids.assistant_message_id, record=record)
            )
            raise
        except Exception as exc:
            logger.exception("chat turn failed")
            deltas.flush()
            await asyncio.shield(
                self.store.finish_turn(
                    assistant_message_id=ids.assistant_message_id,
                    record=turn.record("error", error="The assistant failed unexpectedly."),
                )
            )
            raise exc
        finally:
            if checkpoints is not None:
                checkpoints.forget(message_id)

    async def _complete(
        self, run: Run, turn: _Turn, model: Model, done: AgentComplete, parser: ReplyParser
    ) -> None:
        parsed = parser.result()
        # The message is exactly the text the user saw stream, tool markers included.
        message = "".join(turn.text)
        tool_payloads = [e.payload for e in turn.tool_history if e.payload is not None]
        payloads = [*tool_payloads, *parsed.payloads]
        if tool_payloads:
            primary: CustomPayload | None = tool_payloads[-1]
        elif parsed.payloads:
            primary = parsed.payloads[0]
        elif turn.tool_history:
            primary = CustomPayload(
                type="tool_history", data=[e.model_dump(mode="json") for e in turn.tool_history]
            )
        else:
            primary = None
        warnings = list(parsed.warnings)
        window = model.context_window
        if window and done.last_input_tokens > self.config.context_warning_ratio * window:
            warnings.append(
                f"The conversation uses {done.last_input_tokens:,} of the model's {window:,} "
                "context tokens; start a new conversation soon."
            )
        usage = Usage(input_tokens=done.usage.input_tokens, output_tokens=done.usage.output_tokens)
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
        )
        await self.store.finish_turn(
            assistant_message_id=turn.ids.assistant_message_id, record=record
        )
        run.emit(
            CompleteEvent(
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
                )
            )
        )


def _tool_payload(payload: dict[str, object] | None) -> CustomPayload | None:
    if payload is None:
        return None
    try:
        return CustomPayload.model_validate(payload)
    except ValueError:
        logger.warning("tool payload without a valid {type, data} shape ignored")
        return None
