"""The loop stops before a call that must wait, its state survives JSON, and it goes on
from that state with the decision: approved, denied, or a result the client sent."""

from __future__ import annotations

import json
from typing import Any

from pagechat.agent import (
    AgentApprovalRequested,
    AgentComplete,
    AgentEvent,
    AgentToolComplete,
    LoopResume,
    LoopState,
    run_agent_loop,
)
from pagechat.events import ReasoningDelta, ToolStart
from pagechat.models import Model, ScriptedModel, ToolResultsTurn, UserTurn, tool_call
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.base import (
    AssistantTurn,
    ModelThinking,
    ThinkingPart,
    TokenUsage,
    ToolCallPart,
    ToolResultPart,
)
from pagechat.models.retry import NO_RETRY
from pagechat.tools import ToolConfig, ToolContext, ToolResult
from tests.fakes.anthropic_server import FakeAnthropic, Thinking, ToolUse, reply, signature_for

OBJECT = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


def _tools(ran: list[str]) -> list[ToolConfig]:
    def run(params: dict[str, Any], ctx: ToolContext) -> str:
        ran.append(params["q"])
        return f"did {params['q']}"

    return [
        ToolConfig(name="look", description="Look", input_schema=OBJECT, executor=run),
        ToolConfig(
            name="delete",
            description="Delete",
            input_schema=OBJECT,
            executor=run,
            requires_approval=True,
        ),
    ]


async def _collect(model: Model, tools: list[ToolConfig], **kw: Any) -> list[AgentEvent]:
    return [
        e
        async for e in run_agent_loop(
            model=model,
            system="sys",
            tools=tools,
            context=ToolContext(),
            retry=NO_RETRY,
            **({"messages": [UserTurn("tidy up")]} | kw),
        )
    ]


async def _paused(ran: list[str]) -> AgentApprovalRequested:
    model = ScriptedModel(
        [
            [
                "First a look.",
                tool_call("look", {"q": "a"}, id="t1"),
                tool_call("delete", {"q": "b"}, id="t2"),
            ]
        ]
    )
    events = await _collect(model, _tools(ran))
    pause = events[-1]
    assert isinstance(pause, AgentApprovalRequested)
    return pause


def _stored(state: LoopState) -> LoopState:
    """The state as a pause stores it and a resume reads it back."""
    return LoopState.from_json(json.loads(json.dumps(state.to_json())))


def test_a_loop_state_reads_back_from_its_json() -> None:
    state = LoopState(
        messages=(
            UserTurn("tidy up"),
            AssistantTurn("Looking.", (ToolCallPart("t0", "look", {"q": "x"}),)),
            ToolResultsTurn((ToolResultPart("t0", "did x", False),)),
        ),
        iteration=2,
        usage=TokenUsage(40, 9),
        text="Now delete.",
        calls=(ToolCallPart("t1", "look", {"q": "a"}), ToolCallPart("t2", "delete", {"q": "b"})),
        results=(ToolResultPart("t1", "did a", False),),
    )

    assert _stored(state) == state
    assert state.waiting == ToolCallPart("t2", "delete", {"q": "b"})


def test_a_loop_state_keeps_its_thinking_blocks_through_json() -> None:
    thought = ThinkingPart(thinking="Look, then delete.", signature="c2ln")
    redacted = ThinkingPart(data="b3BhcXVl")
    state = LoopState(
        messages=(
            UserTurn("tidy up"),
            AssistantTurn("", (ToolCallPart("t0", "look", {"q": "x"}),), thinking=(thought,)),
            ToolResultsTurn((ToolResultPart("t0", "did x", False),)),
        ),
        iteration=2,
        usage=TokenUsage(40, 9),
        text="",
        calls=(ToolCallPart("t2", "delete", {"q": "b"}),),
        results=(),
        thinking=(redacted, thought),
    )

    assert _stored(state) == state


def test_a_loop_state_stored_before_thinking_still_loads() -> None:
    old = {
        "messages": [
            {"role": "user", "text": "tidy up"},
            {"role": "assistant", "text": "", "calls": [{"id": "t0", "name": "look", "input": {}}]},
            {"role": "tool_results", "results": [{"id": "t0", "content": "x", "is_error": False}]},
        ],
        "iteration": 2,
        "usage": [40, 9],
        "text": "",
        "calls": [{"id": "t2", "name": "delete", "input": {"q": "b"}}],
        "results": [],
    }

    state = LoopState.from_json(old)

    assert state.thinking == ()
    assert state.messages[1] == AssistantTurn("", (ToolCallPart("t0", "look", {}),))


async def test_reasoning_streams_through_the_loop_and_thinking_goes_back_with_the_calls() -> None:
    thought = ThinkingPart(thinking="Look first.", signature="c2ln")
    model = ScriptedModel(
        [
            [
                ReasoningDelta(text="Look first."),
                ModelThinking(part=thought),
                tool_call("look", {"q": "a"}, id="t1"),
            ],
            ["Done."],
        ]
    )

    events = await _collect(model, _tools([]))

    assert events[0] == ReasoningDelta(text="Look first.")
    sent = model.requests[1].messages[1]
    assert sent == AssistantTurn("", (ToolCallPart("t1", "look", {"q": "a"}),), thinking=(thought,))


async def test_thinking_goes_back_unchanged_after_a_pause_through_the_real_sdk() -> None:
    """Anthropic refuses a tool turn whose thinking block is missing or altered: the
    block must survive the pause's JSON and go back with the resumed turn."""
    thought = "Look at a, then delete b."
    async with FakeAnthropic(
        reply(
            Thinking(thought),
            ToolUse("look", {"q": "a"}, id="t1"),
            ToolUse("delete", {"q": "b"}, id="t2"),
        ),
        reply("All tidy."),
    ) as fake:
        model = AnthropicModel(
            "claude-sonnet-4-6", api_key="k", base_url=fake.base_url, thinking_budget=1024
        )
        ran: list[str] = []
        events = await _collect(model, _tools(ran))
        pause = events[-1]
        assert isinstance(pause, AgentApprovalRequested)

        resumed = LoopResume(_stored(pause.state), approved=True)
        done = await _collect(model, _tools(ran), messages=[], resume=resumed)
        await model.aclose()

    assert ran == ["a", "b"]
    assert isinstance(done[-1], AgentComplete)
    turn = fake.requests[1]["messages"][1]["content"]
    assert turn[0] == {"type": "thinking", "thinking": thought, "signature": signature_for(thought)}
    assert [b["id"] for b in turn[1:]] == ["t1", "t2"]


async def test_the_loop_stops_before_a_call_that_needs_approval() -> None:
    ran: list[str] = []

    pause = await _paused(ran)

    assert ran == ["a"]  # the call before it ran; the one that waits did not
    assert pause.tool == "delete" and pause.input == {"q": "b"}
    assert pause.approval_kind == "approval"
    assert pause.state.text == "First a look."
    assert [r.content for r in pause.state.results] == ["did a"]
    assert pause.state.waiting.id == "t2"


async def test_an_approved_call_runs_when_the_loop_resumes_and_the_turn_goes_on() -> None:
    ran: list[str] = []
    pause = await _paused(ran)
    model = ScriptedModel([["All tidy."]])

    events = await _collect(
        model, _tools(ran), messages=[], resume=LoopResume(_stored(pause.state), approved=True)
    )

    assert ran == ["a", "b"]
    assert isinstance(events[0], ToolStart) and events[0].tool == "delete"
    done = events[-1]
    assert isinstance(done, AgentComplete)
    assert done.usage.input_tokens > pause.state.usage.input_tokens  # counted on from the pause
    [request] = model.requests
    assert request.messages[0] == UserTurn("tidy up")
    results = request.messages[-1]
    assert isinstance(results, ToolResultsTurn)
    assert [(r.tool_use_id, r.content) for r in results.results] == [
        ("t1", "did a"),
        ("t2", "did b"),
    ]


async def test_a_denied_call_is_not_run_and_the_model_reads_why() -> None:
    ran: list[str] = []
    pause = await _paused(ran)
    model = ScriptedModel([["Kept it."]])

    events = await _collect(
        model,
        _tools(ran),
        messages=[],
        resume=LoopResume(_stored(pause.state), approved=False, note="still needed"),
    )

    assert ran == ["a"]
    denied = next(e for e in events if isinstance(e, AgentToolComplete))
    assert denied.is_error and "did not approve" in denied.output
    assert "still needed" in denied.output
    results = model.requests[0].messages[-1]
    assert isinstance(results, ToolResultsTurn) and results.results[-1].is_error


async def test_a_result_the_client_sent_is_what_the_model_reads() -> None:
    ran: list[str] = []
    pause = await _paused(ran)
    model = ScriptedModel([["Thanks."]])
    sent = ToolResult("the page did b", is_error=False)

    events = await _collect(
        model,
        _tools(ran),
        messages=[],
        resume=LoopResume(_stored(pause.state), approved=True, result=sent),
    )

    assert ran == ["a"]  # the client ran it, not the server
    done = next(e for e in events if isinstance(e, AgentToolComplete))
    assert done.output == "the page did b" and not done.is_error


async def test_with_nowhere_to_pause_the_call_is_refused_and_the_model_told() -> None:
    ran: list[str] = []
    model = ScriptedModel([[tool_call("delete", {"q": "b"}, id="t2")], ["Could not."]])

    events = await _collect(model, _tools(ran), can_pause=False)

    assert ran == []
    refused = next(e for e in events if isinstance(e, AgentToolComplete))
    assert refused.is_error and "cannot be asked for here" in refused.output
    assert isinstance(events[-1], AgentComplete)
