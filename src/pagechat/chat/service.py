"""One chat turn, from request to stored message.

`ChatService.start` stores the user message, assembles the prompt for the
page, and starts a run whose body drives the agent loop. Every event the user
sees goes through `Run.emit`; the same events are folded into the stored
assistant message, so a reloaded conversation renders like the live one.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from opentelemetry.trace import Tracer
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..identity import Principal
from ..models.base import Model
from ..pages import prepare_turn
from ..protocol import ChatRequest, MessagePublic
from ..quotas import Quotas
from ..runs import Draining, Run, RunManager, RunObserver
from ..store.base import ChatStore
from ..tracing import RunTracer
from .checkpoints import Checkpointer
from .config import ChatConfig
from .turn import TurnRunner, TurnState, tool_context

__all__ = ["ChatConfig", "ChatService"]

logger = logging.getLogger(__name__)

ModelSource = Model | Callable[[], Model]


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

    async def aclose(self) -> None:
        """After the runs have stopped: no more checkpoints."""
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
        turn = TurnState(ids, setup)

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

    async def _run(
        self,
        run: Run,
        turn: TurnState,
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
        turn: TurnState,
        session: AsyncSession | None,
        user: Principal,
        request: ChatRequest,
        earlier: list[MessagePublic],
    ) -> None:
        runner = TurnRunner(
            run=run,
            turn=turn,
            model=self.model,
            store=self.store,
            config=self.config,
            checkpoints=self._checkpoints,
            context=tool_context(user=user, run=run, turn=turn, request=request, session=session),
        )
        messages = TurnRunner.build_messages(
            earlier=earlier,
            request=request,
            setup=turn.setup,
            budget=self.config.history_budget,
        )
        await runner.run(messages)
