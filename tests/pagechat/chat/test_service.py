import asyncio
from collections.abc import AsyncIterator

import uvloop

from pagechat.chat.service import ChatService
from pagechat.events import ReasoningDelta, TextDelta
from pagechat.identity import Principal
from pagechat.models import FunctionModel, ModelRequest, ScriptedModel, ScriptItem
from pagechat.pages import DEFAULT_BASE_INSTRUCTIONS
from pagechat.protocol import ChatRequest
from pagechat.runs import RunManager
from tests.support.stores import sqlite_store

ALICE = Principal(id="alice", email="alice@example.com")
TOKENS = 20_000


def test_an_instant_answer_lets_other_tasks_run_under_uvloop() -> None:
    # Regression: the turn yielded on `loop.time()`, which uvloop does not advance while
    # a callback runs; an instant model then held the loop for its whole answer, and
    # the first event reached the client only after the last one was made.
    produced = 0

    async def tokens(request: ModelRequest) -> AsyncIterator[ScriptItem]:
        nonlocal produced
        for i in range(TOKENS):
            produced += 1
            yield f"t{i} "

    async def main() -> list[int]:
        async with sqlite_store(ALICE, in_memory=True) as store:
            service = ChatService(model=FunctionModel(tokens), store=store, runs=RunManager())
            run = await service.start(user=ALICE, request=ChatRequest(message="go"))
            assert run.task is not None
            seen: list[int] = []
            while not run.task.done():
                seen.append(produced)
                await asyncio.sleep(0)
            assert run.terminal == "complete"
            return seen

    seen = uvloop.run(main())
    assert any(0 < n < TOKENS for n in seen), f"others ran only at {sorted(set(seen))}"


async def test_every_turn_starts_from_the_one_base_prompt_of_the_pages() -> None:
    model = FunctionModel(lambda _request: "Hi.")
    async with sqlite_store(ALICE, in_memory=True) as store:
        service = ChatService(model=model, store=store, runs=RunManager())

        run = await service.start(user=ALICE, request=ChatRequest(message="hello"))
        assert run.task is not None
        await run.task

    assert model.requests[0].system.startswith(DEFAULT_BASE_INSTRUCTIONS)


async def test_the_models_reasoning_streams_to_the_run_before_the_answer() -> None:
    model = ScriptedModel(
        [[ReasoningDelta(text="The user "), ReasoningDelta(text="greets."), "Hi."]]
    )
    async with sqlite_store(ALICE, in_memory=True) as store:
        service = ChatService(model=model, store=store, runs=RunManager())

        run = await service.start(user=ALICE, request=ChatRequest(message="hello"))
        assert run.task is not None
        await run.task
        events = [e async for _, e in run.log.events()]

    shown = [e for e in events if isinstance(e, ReasoningDelta | TextDelta)]
    assert shown == [
        ReasoningDelta(text="The user "),
        ReasoningDelta(text="greets."),
        TextDelta(text="Hi."),
    ]
