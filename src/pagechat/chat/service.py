"""One chat turn, from request to stored message.

`ChatService.start` assembles the prompt for the page and starts a run whose
body drives the agent loop, with the user message being stored beside it
(`ChatStore.start_turn`, chat/stored.py). Every event the user
sees goes through `Run.emit`; the same events are folded into the stored
assistant message, so a reloaded conversation renders like the live one.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..attachments import Attachments, TooManyAttachments
from ..attachments.content import file_parts
from ..identity import Principal
from ..models.base import FilePart, Model, ModelMessage
from ..pages import TurnSetup, prepare_turn
from ..protocol import AttachmentRef, ChatRequest, MessagePublic
from ..quotas import Quotas
from ..runs import Draining, Run, RunManager, RunObserver
from ..store.base import BranchKind, ChatStore, TurnIds
from ..store.users import get_user, principal_of
from ..tools.types import ToolConfig
from .approvals import ApprovalPending, Approvals
from .checkpoints import Checkpointer
from .config import ChatConfig
from .frontend_tools import offer_frontend_tools
from .paused import PausedTurn, replay_events
from .resume import AnswerTakeover, TurnParts, recipe
from .stored import end_if_unsaved
from .titles import TitleWriter
from .turn import TurnRunner, TurnState, tool_context

if TYPE_CHECKING:
    from opentelemetry.trace import Tracer

__all__ = ["ChatConfig", "ChatService", "ModelSource"]

logger = logging.getLogger(__name__)

EARLIER_FILE_MESSAGES = 3
"""Earlier user messages whose files the model gets again on a later turn (the newest)."""

ModelSource = Model | Callable[[], Model]
"""The app's model: one `Model`, or a function called for each turn to give it."""


class ChatService:
    """Starts chat turns as runs: prompt, agent loop, stored message, quotas and traces."""

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
        attachments: Attachments | None = None,
    ) -> None:
        self._model = model
        self.attachments = attachments
        """Uploaded files a message may carry; None: a message with attachments is refused."""
        self.quotas = quotas
        """Per-user limits on turns; None: unlimited (tests, embedded use)."""
        self._tracer = tracer
        self.store = store
        self.runs = runs
        self.config = config or ChatConfig()
        self.sessions = sessions
        """Where tools get `ToolContext.session`: one session per run, closed when it ends."""
        self._titles = TitleWriter(store, lambda: self.model)
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
        if sessions is not None:
            # With Redis, an answer whose worker stops goes on on another (chat/resume.py).
            runs.takeover = AnswerTakeover(
                TurnParts(
                    store=store,
                    config=self.config,
                    sessions=sessions,
                    load_user=self._load_user,
                    run_turn=self._run,
                    settler=lambda user, run_id, turn, counted: self._settler(
                        user, run_id, turn, counted=counted
                    ),
                )
            )

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
        """After the runs have stopped: no more checkpoints, no more titles."""
        await self._titles.aclose()
        if self._checkpoints is not None:
            await self._checkpoints.aclose()
        if self.approvals is not None:
            await self.approvals.aclose()

    @property
    def model(self) -> Model:
        """The model the next turn uses (a source is asked at each turn)."""
        return self._model if isinstance(self._model, Model) else self._model()

    async def start(
        self,
        *,
        user: Principal,
        request: ChatRequest,
        frontend_tools: Sequence[ToolConfig] = (),
        conversation_title: str | None = None,
    ) -> Run:
        """Start the run, the user message and the answer's placeholder being stored
        beside it (the run waits for that write before anything else that touches
        storage, and ends with an `error` event if it fails).

        `frontend_tools` are offered besides the page's (`chat/frontend_tools.py`). With
        `conversation_title`, `request.conversation_id` is made (so titled) when it does
        not exist yet: an AG-UI thread names its conversation (`agui.conversation_for_thread`).
        Raises ConversationNotFound, QuotaExceeded, FrontendToolError (before anything is
        stored), and Draining when the server is shutting down.
        """
        setup = self._prepare(user, request.context, frontend_tools)
        created = request.conversation_id is None
        if conversation_title is not None and request.conversation_id is not None:
            created = await self.store.ensure_conversation(
                user=user, conversation_id=request.conversation_id, title=conversation_title
            )
        refs = await self._files_of(user, request.attachments, request.conversation_id)
        run_id = await self._admit(user, request.message)
        async with self._releasing_on_error(user, run_id):
            earlier = (
                await self.store.history(user=user, conversation_id=request.conversation_id)
                if request.conversation_id
                else []
            )
            # After the ownership check above: another user's conversation stays a 404.
            if request.conversation_id is not None:
                await self._refuse_while_waiting(request.conversation_id)
            # Not awaited: the model is asked at once, the turn stored beside it
            # (docs/performance.md); the run waits for the write before anything else
            # that touches storage, and ends with an error if it fails.
            started = self.store.start_turn(
                user=user,
                conversation_id=request.conversation_id,
                message=request.message,
                run_id=run_id,
                attachments=[ref.model_dump() for ref in refs],
            )
            if refs and self.attachments is not None:
                await self.attachments.attach([ref.id for ref in refs], started.ids.conversation_id)
            files, earlier_files = await self._model_files(user, refs, earlier)
        messages = TurnRunner.build_messages(
            earlier=earlier,
            question=request.message,
            setup=setup,
            budget=self.config.history_budget,
            files=files,
            earlier_files=earlier_files,
        )
        turn = TurnState(started.ids, setup, question=request.message, stored=started.written)
        # A client's frontend tools are not there for another worker: no takeover then.
        movable = not frontend_tools
        titled = created and self.config.model_titles
        return self._launch(
            user,
            run_id,
            turn,
            request.context,
            messages,
            movable=movable,
            titled=titled,
            # A conversation made by this turn has nothing before it (chat/resume.py).
            first=created,
        )

    async def start_branch(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        kind: BranchKind,
        context: dict[str, Any],
        message: str | None = None,
        attachments: Sequence[str] | None = None,
    ) -> Run:
        """Regenerate an answer, edit and resend a question, or continue a stopped answer
        (`BranchKind`), as a run like any turn's. An edit carries `attachments` (ids), or
        None to keep the edited question's files; the others keep the question's.

        Raises ConversationNotFound, MessageNotFound, AnswerRunning, NotBranchable,
        QuotaExceeded, AttachmentNotFound, TooManyAttachments and Draining.
        """
        setup = self._prepare(user, context)
        new_refs = (
            await self._files_of(user, attachments, conversation_id)
            if kind == "edit" and attachments is not None
            else None
        )
        run_id = await self._admit(user, message or "")
        async with self._releasing_on_error(user, run_id):
            earlier = await self.store.history(
                user=user, conversation_id=conversation_id, leaf_id=message_id
            )
            await self._refuse_while_waiting(conversation_id)
            # `earlier` is the path down to the message the branch starts at.
            target = earlier.pop() if earlier and earlier[-1].id == message_id else None
            refs = new_refs
            if kind == "edit" and refs is None and target is not None:
                refs = list(target.attachments)
            ids = await self.store.begin_branch(
                user=user,
                conversation_id=conversation_id,
                message_id=message_id,
                kind=kind,
                run_id=run_id,
                message=message,
                attachments=[ref.model_dump() for ref in refs or ()],
            )
            if new_refs and self.attachments is not None:
                await self.attachments.attach([ref.id for ref in new_refs], conversation_id)
        partial = target if kind == "continue" else None
        if kind == "edit":
            question = message or ""
        else:
            asked = earlier.pop() if earlier and earlier[-1].role == "user" else None
            question = asked.content if asked is not None else ""
            refs = list(asked.attachments) if asked is not None else []
        files, earlier_files = await self._model_files(user, refs or [], earlier)
        turn = TurnState(ids, setup, question=question)
        if partial is not None:
            # The run goes on from what the user saw: one answer, its tools numbered on.
            turn.go_on_from_stored(partial)
            turn.joining = True
        messages = TurnRunner.build_messages(
            earlier=earlier,
            question=question,
            setup=setup,
            budget=self.config.history_budget,
            partial=partial,
            files=files,
            earlier_files=earlier_files,
        )
        return self._launch(user, run_id, turn, context, messages, movable=True)

    async def resume_turn(
        self,
        user: Principal,
        paused: PausedTurn,
        run_id: str,
        *,
        extra_tools: Sequence[ToolConfig] = (),
    ) -> Run:
        """Go on with a paused turn, in the run `run_id` (chat/approvals.py: the `Resumer`).

        The run first replays the answer so far, so it folds like one run. It is not
        admitted against quotas again (the turn was, when it started), but the tokens it
        spends count against the day's, as the first run's did. `extra_tools`: the
        client's frontend tools, when its result resumes the turn.
        """
        claimed, saved = paused.claimed, paused.saved
        setup = prepare_turn(
            saved.context, is_admin=user.is_admin, base_instructions=self.config.base_instructions
        )
        if extra_tools:
            tools = offer_frontend_tools(setup.tools, extra_tools, strict=False)
            setup = replace(setup, tools=tools)
        ids = TurnIds(claimed.conversation_id, "", claimed.message_id)
        turn = TurnState(
            ids, setup, question=saved.message, resume=paused.resume, parsed=saved.parsed
        )
        turn.go_on_from(saved.content, saved.tool_history, saved.cards)
        turn.usage = saved.usage
        turn.thought_before = saved.reasoning
        if claimed.kind == "approval":
            turn.approvals[claimed.tool_use_id] = claimed.approval

        # The usage goes on from the pause's, which the first run counted.
        turn.settle = self._settler(
            user, run_id, turn, counted=saved.usage.input_tokens + saved.usage.output_tokens
        )

        async def body(run: Run) -> None:
            try:
                for event in replay_events(paused):
                    run.emit(event)
                # The loop takes its messages from the paused state.
                await self._run(run, turn, user, saved.context, [])
            finally:
                if turn.settle is not None:
                    await asyncio.shield(turn.settle())

        # Its log replays the answer so far: a takeover rebuilds it all from there.
        resume = (
            None
            if extra_tools
            else recipe(
                user=user,
                ids=ids,
                question=saved.message,
                context=saved.context,
                charged=saved.usage,
            )
        )
        return self.runs.start(
            owner_id=user.id,
            conversation_id=ids.conversation_id,
            body=body,
            run_id=run_id,
            resume=resume,
        )

    async def _files_of(
        self, user: Principal, ids: Sequence[str], conversation_id: str | None
    ) -> list[AttachmentRef]:
        """The user's files `ids` for a message of `conversation_id`, checked before
        anything is counted or stored (AttachmentNotFound, TooManyAttachments)."""
        if not ids:
            return []
        if self.attachments is None:
            raise TooManyAttachments(0)
        found = await self.attachments.bind(user, ids, conversation_id)
        return [AttachmentRef(**info.model_dump()) for info in found]

    async def _model_files(
        self, user: Principal, refs: Sequence[AttachmentRef], earlier: Sequence[MessagePublic]
    ) -> tuple[tuple[FilePart, ...], dict[str, tuple[FilePart, ...]]]:
        """The model's view of the question's files and of the newest earlier ones (at
        most `EARLIER_FILE_MESSAGES` messages' worth: the history budget decides the rest)."""
        if self.attachments is None:
            return (), {}
        edge = self.model.image_max_edge
        files = await file_parts(self.attachments, user, refs, image_edge=edge)
        earlier_files: dict[str, tuple[FilePart, ...]] = {}
        for message in reversed(earlier):
            if len(earlier_files) >= EARLIER_FILE_MESSAGES:
                break
            if message.role == "user" and message.attachments:
                earlier_files[message.id] = await file_parts(
                    self.attachments,
                    user,
                    message.attachments,
                    image_edge=edge,
                    text_budget=self.config.history_budget // 2,
                )
        return files, earlier_files

    async def _refuse_while_waiting(self, conversation_id: str) -> None:
        if self.approvals is not None and await self.approvals.has_pending(conversation_id):
            raise ApprovalPending("Approve or deny the pending request first.")

    def _prepare(
        self,
        user: Principal,
        context: dict[str, Any],
        frontend_tools: Sequence[ToolConfig] = (),
    ) -> TurnSetup:
        if self.runs.draining:
            raise Draining("The server is restarting; try again in a moment.")
        setup = prepare_turn(
            context, is_admin=user.is_admin, base_instructions=self.config.base_instructions
        )
        if frontend_tools:
            setup = replace(setup, tools=offer_frontend_tools(setup.tools, frontend_tools))
        return setup

    async def _admit(self, user: Principal, message: str) -> str:
        run_id = uuid.uuid4().hex
        if self.quotas is not None:
            await self.quotas.admit(user, run_id, message)
        return run_id

    @asynccontextmanager
    async def _releasing_on_error(self, user: Principal, run_id: str) -> AsyncIterator[None]:
        """Nothing started: the admitted turn is given back."""
        try:
            yield
        except BaseException:
            if self.quotas is not None:
                await self.quotas.release(user.id, run_id, tokens=0)
            raise

    def _settler(
        self,
        user: Principal,
        run_id: str,
        turn: TurnState,
        *,
        counted: int = 0,
    ) -> Callable[[], Awaitable[None]] | None:
        """`TurnState.settle`: the admitted turn given back once, with the tokens it spent
        beyond `counted` (what an earlier run of the same turn was charged)."""
        quotas = self.quotas
        if quotas is None:
            return None
        settled = False

        async def settle() -> None:
            nonlocal settled
            if settled:
                return
            settled = True
            spent = turn.usage.input_tokens + turn.usage.output_tokens - counted
            await quotas.release(user.id, run_id, tokens=max(0, spent))

        return settle

    def _launch(
        self,
        user: Principal,
        run_id: str,
        turn: TurnState,
        context: dict[str, Any],
        messages: list[ModelMessage],
        *,
        movable: bool,
        titled: bool = False,
        first: bool = False,
    ) -> Run:
        """Start the turn's run. `titled`: the conversation's first answer, after which the
        model writes the conversation's title (chat/titles.py); `first`: the turn made its
        conversation (a takeover then reads no earlier turns)."""
        turn.settle = self._settler(user, run_id, turn)
        # Before any text: what the turn held when it started (Continue's stored part).
        resume = (
            recipe(
                user=user,
                ids=turn.ids,
                question=turn.question,
                context=context,
                base=turn if turn.text or turn.tool_history else None,
                first=first,
            )
            if movable
            else None
        )

        async def body(run: Run) -> None:
            if turn.stored is not None:
                end_if_unsaved(run, turn.stored)
            try:
                await self._run(run, turn, user, context, messages)
            finally:
                if turn.settle is not None:
                    await asyncio.shield(turn.settle())
            if titled and run.terminal == "complete":
                self._titles.write(
                    user=user,
                    conversation_id=turn.ids.conversation_id,
                    question=turn.question,
                    answer="".join(turn.text),
                )

        observers: list[RunObserver] = []
        if self._tracer is not None:
            from ..tracing import RunTracer  # the otel extra, there when a tracer is

            model = self.model
            observers.append(
                RunTracer(
                    self._tracer,
                    run_id=run_id,
                    conversation_id=turn.ids.conversation_id,
                    provider=model.provider,
                    model=model.name,
                )
            )
        return self.runs.start(
            owner_id=user.id,
            conversation_id=turn.ids.conversation_id,
            body=body,
            run_id=run_id,
            observers=observers,
            resume=resume,
        )

    async def _run(
        self,
        run: Run,
        turn: TurnState,
        user: Principal,
        context: dict[str, Any],
        messages: list[ModelMessage],
    ) -> None:
        # The runner is made here, not in a coroutine of its own: every coroutine between
        # the run's task and the turn is resumed again for every token.
        if self.sessions is None:
            await self._runner(run, turn, None, user, context).run(messages)
            return
        # Tools commit their own writes; whatever they left uncommitted is rolled back.
        async with self.sessions() as session:
            await self._runner(run, turn, session, user, context).run(messages)

    def _runner(
        self,
        run: Run,
        turn: TurnState,
        session: AsyncSession | None,
        user: Principal,
        context: dict[str, Any],
    ) -> TurnRunner:
        return TurnRunner(
            run=run,
            turn=turn,
            model=self.model,
            store=self.store,
            config=self.config,
            checkpoints=self._checkpoints,
            context=tool_context(user=user, run=run, turn=turn, context=context, session=session),
            approvals=self.approvals,
            user=user,
        )
