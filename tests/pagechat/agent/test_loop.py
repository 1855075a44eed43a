from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Generator
from typing import Any

import pytest

from pagechat.agent import (
    SUMMARY_INSTRUCTION,
    AgentComplete,
    AgentError,
    AgentEvent,
    AgentToolComplete,
    run_agent_loop,
)
from pagechat.events import Status, TextDelta, ToolStart, ToolUpdate
from pagechat.models import (
    Pause,
    ProviderError,
    ScriptedModel,
    ToolResultsTurn,
    UserTurn,
    tool_call,
)
from pagechat.models.retry import NO_RETRY
from pagechat.tools import ToolConfig, ToolContext, ToolProgress, ToolResult

OBJECT = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


def _tool(name: str, executor: Any, **kw: Any) -> ToolConfig:
    return ToolConfig(
        name=name, description=f"{name} tool", input_schema=OBJECT, executor=executor, **kw
    )


def _echo(params: dict[str, Any], ctx: ToolContext) -> str:
    return f"echo {params['q']}"


async def _collect(model: ScriptedModel, tools: list[ToolConfig], **kw: Any) -> list[AgentEvent]:
    return [
        e
        async for e in run_agent_loop(
            model=model,
            system="sys",
            messages=[UserTurn("hi")],
            tools=tools,
            context=ToolContext(),
            retry=NO_RETRY,
            **kw,
        )
    ]


def _kinds(events: list[AgentEvent]) -> list[str]:
    return [type(e).__name__ for e in events]


async def test_text_only_reply_streams_deltas_then_completes() -> None:
    model = ScriptedModel([["Hel", "lo"]])
    events = await _collect(model, [])
    assert _kinds(events) == ["TextDelta", "TextDelta", "AgentComplete"]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hello"
    assert isinstance(events[-1], AgentComplete) and events[-1].stop_reason == "end_turn"


async def test_one_tool_result_goes_back_to_the_model() -> None:
    model = ScriptedModel([["Looking.", tool_call("echo", {"q": "x"}, id="t1")], ["Done."]])
    events = await _collect(model, [_tool("echo", _echo)])
    assert _kinds(events) == [
        "TextDelta",
        "ToolStart",
        "AgentToolComplete",
        "Status",
        "TextDelta",
        "AgentComplete",
    ]
    done = events[2]
    assert isinstance(done, AgentToolComplete) and done.output == "echo x" and not done.is_error
    second = model.requests[1].messages
    assert isinstance(second[-1], ToolResultsTurn)
    assert second[-1].results[0].tool_use_id == "t1" and second[-1].results[0].content == "echo x"


async def test_two_tools_in_one_turn_run_in_the_order_asked() -> None:
    # The first call gives way to the event loop many times before it ends: run side by
    # side, the second would start (and end) meanwhile. No wall time is involved.
    yields = {"first": 20, "second": 0}
    trace: list[str] = []

    async def slow(params: dict[str, Any], ctx: ToolContext) -> str:
        trace.append(f"start {params['q']}")
        for _ in range(yields[params["q"]]):
            await asyncio.sleep(0)
        trace.append(f"end {params['q']}")
        return str(params["q"])

    model = ScriptedModel(
        [[tool_call("t", {"q": "first"}), tool_call("t", {"q": "second"})], ["ok"]]
    )
    events = await _collect(model, [_tool("t", slow)])
    starts = [e.input["q"] for e in events if isinstance(e, ToolStart)]
    completes = [e.output for e in events if isinstance(e, AgentToolComplete)]
    assert starts == completes == ["first", "second"]
    assert trace == ["start first", "end first", "start second", "end second"]


async def test_async_generator_progress_arrives_while_the_tool_runs() -> None:
    release = asyncio.Event()

    async def streaming(params: dict[str, Any], ctx: ToolContext) -> AsyncIterator[Any]:
        yield ToolProgress(stage="searching", message="Searching...", progress=0.5)
        await release.wait()  # only the consumer seeing the progress can release us
        yield ToolResult("found", payload={"type": "x", "data": 1})

    model = ScriptedModel([[tool_call("s", {"q": "a"})], ["ok"]])
    seen: list[AgentEvent] = []
    async for event in run_agent_loop(
        model=model,
        system="",
        messages=[UserTurn("hi")],
        tools=[_tool("s", streaming)],
        context=ToolContext(),
        retry=NO_RETRY,
    ):
        seen.append(event)
        if isinstance(event, ToolUpdate):
            release.set()
    progress = next(e for e in seen if isinstance(e, ToolUpdate))
    assert (progress.stage, progress.message, progress.progress) == (
        "searching",
        "Searching...",
        0.5,
    )
    done = next(e for e in seen if isinstance(e, AgentToolComplete))
    assert done.payload == {"type": "x", "data": 1}


async def test_sync_generator_runs_in_a_thread_and_streams_progress() -> None:
    release = threading.Event()
    threads: list[str] = []

    def streaming(params: dict[str, Any], ctx: ToolContext) -> Generator[Any, None, str]:
        threads.append(threading.current_thread().name)
        yield ToolProgress(stage="fetching", progress=0.25)
        assert release.wait(5), "progress never reached the consumer"
        return "fetched"

    model = ScriptedModel([[tool_call("s", {"q": "a"})], ["ok"]])
    results = []
    async for event in run_agent_loop(
        model=model,
        system="",
        messages=[UserTurn("hi")],
        tools=[_tool("s", streaming)],
        context=ToolContext(),
        retry=NO_RETRY,
    ):
        if isinstance(event, ToolUpdate):
            release.set()
        if isinstance(event, AgentToolComplete):
            results.append(event.output)
    assert results == ["fetched"]
    assert threads and threads[0] != threading.main_thread().name


async def test_failing_tool_becomes_an_error_result_and_the_loop_goes_on() -> None:
    def boom(params: dict[str, Any], ctx: ToolContext) -> str:
        raise RuntimeError("database on fire")

    model = ScriptedModel([[tool_call("boom", {"q": "a"})], ["Sorry, that failed."]])
    events = await _collect(model, [_tool("boom", boom)])
    done = next(e for e in events if isinstance(e, AgentToolComplete))
    assert done.is_error and "database on fire" in done.output
    assert isinstance(events[-1], AgentComplete)
    result = model.requests[1].messages[-1]
    assert isinstance(result, ToolResultsTurn) and result.results[0].is_error


async def test_invalid_tool_input_is_rejected_before_the_tool_runs() -> None:
    called: list[dict[str, Any]] = []

    def echo(params: dict[str, Any], _ctx: ToolContext) -> str:
        called.append(params)
        return "x"

    model = ScriptedModel([[tool_call("echo", {"q": 5})], ["ok"]])
    events = await _collect(model, [_tool("echo", echo)])
    done = next(e for e in events if isinstance(e, AgentToolComplete))
    assert done.is_error and "Invalid input" in done.output and "q" in done.output
    assert called == []


async def test_tool_timeout_becomes_an_error_result() -> None:
    async def hang(params: dict[str, Any], ctx: ToolContext) -> str:
        await asyncio.sleep(30)
        return "never"

    model = ScriptedModel([[tool_call("hang", {"q": "a"})], ["ok"]])
    events = await _collect(model, [_tool("hang", hang, timeout=0.05)])
    done = next(e for e in events if isinstance(e, AgentToolComplete))
    assert done.is_error and "timed out" in done.output


async def test_unknown_tool_is_an_error_result() -> None:
    model = ScriptedModel([[tool_call("nope", {})], ["ok"]])
    events = await _collect(model, [_tool("echo", _echo)])
    done = next(e for e in events if isinstance(e, AgentToolComplete))
    assert done.is_error and "Unknown tool" in done.output


async def test_iteration_cap_ends_with_one_call_without_tools_asking_for_a_summary() -> None:
    always = [[tool_call("echo", {"q": str(i)})] for i in range(2)]
    model = ScriptedModel(
        [*always, ["Summary: nothing conclusive.", tool_call("echo", {"q": "x"})]]
    )
    events = await _collect(model, [_tool("echo", _echo)], max_iterations=2)
    assert len(model.requests) == 3
    final = model.requests[2]
    assert final.tool_choice == "none" and SUMMARY_INSTRUCTION in final.system
    assert all(r.tool_choice == "auto" for r in model.requests[:2])
    assert sum(isinstance(e, AgentToolComplete) for e in events) == 2  # the late call is ignored
    assert isinstance(events[-1], AgentComplete)


async def test_provider_error_ends_the_turn_with_an_error_event() -> None:
    model = ScriptedModel([["partial ", ProviderError("overloaded", "The model is overloaded.")]])
    events = await _collect(model, [])
    assert isinstance(events[0], TextDelta)
    assert isinstance(events[-1], AgentError) and events[-1].code == "overloaded"


async def test_cancel_during_model_streaming_stops_promptly() -> None:
    model = ScriptedModel([["first ", Pause(30), "never"]])
    seen: list[AgentEvent] = []
    first = asyncio.Event()

    async def consume() -> None:
        async for e in run_agent_loop(
            model=model,
            system="",
            messages=[UserTurn("hi")],
            tools=[],
            context=ToolContext(),
            retry=NO_RETRY,
        ):
            seen.append(e)
            first.set()

    task = asyncio.create_task(consume())
    await first.wait()
    task.cancel()
    async with asyncio.timeout(1.0):  # the 200 ms target is measured in bench/cancel.py
        with pytest.raises(asyncio.CancelledError):
            await task
    assert [e.text for e in seen if isinstance(e, TextDelta)] == ["first "]


async def test_cancel_during_a_tool_cancels_the_tool() -> None:
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def slow(params: dict[str, Any], ctx: ToolContext) -> str:
        started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    model = ScriptedModel([[tool_call("slow", {"q": "a"})], ["never"]])
    task = asyncio.create_task(_collect(model, [_tool("slow", slow)]))
    await started.wait()
    task.cancel()
    async with asyncio.timeout(1.0):  # the 200 ms target is measured in bench/cancel.py
        with pytest.raises(asyncio.CancelledError):
            await task
    assert cancelled.is_set()
    assert len(model.requests) == 1


async def test_thinking_event_between_iterations() -> None:
    model = ScriptedModel([[tool_call("echo", {"q": "a"})], ["ok"]])
    events = await _collect(model, [_tool("echo", _echo)])
    assert any(isinstance(e, Status) for e in events)
