"""What the providers' APIs receive of earlier turns: the tool calls in their own tool-use
form, and each proposal with what the user did with it — sent through the real SDKs to
local fakes that refuse what the APIs would."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from pagechat.chat import build_history
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.base import ModelRequest, ToolSpec, UserTurn
from pagechat.models.openai import OpenAIModel
from pagechat.protocol import CustomPayload, MessagePublic, ToolHistoryEntry
from tests.fakes.anthropic_server import FakeAnthropic, reply
from tests.fakes.openai_server import FakeOpenAI, text

SEARCH = ToolSpec("search_pubmed", "Search PubMed.", {"type": "object"})


def _earlier() -> list[MessagePublic]:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    search = ToolHistoryEntry(
        tool_name="search_pubmed",
        input={"query": "CRISPR"},
        output="3 articles",
        tool_use_id="toolu_01",
    )
    plan = CustomPayload(type="schema_proposal", data={"topics": ["base editing"]})
    return [
        MessagePublic(id="m1", role="user", content="Find and plan", created_at=at),
        MessagePublic(
            id="m2",
            role="assistant",
            content="Searching.[[tool:0]]Here is a plan.",
            created_at=at,
            tool_history=[search],
            payloads=[plan],
            custom_payload=plan,
            payload_decision="rejected",
        ),
    ]


def _request() -> ModelRequest:
    messages = [*build_history(_earlier()), UserTurn("Try again")]
    return ModelRequest(system="You help.", messages=messages, tools=[SEARCH])


async def test_anthropic_receives_tool_use_results_and_the_proposals_fate() -> None:
    with FakeAnthropic(reply("OK")) as fake:
        model = AnthropicModel("claude-test", api_key="sk-ant-test", base_url=fake.base_url)
        try:
            _ = [event async for event in model.stream(_request())]
        finally:
            await model.aclose()
        sent: list[dict[str, Any]] = fake.requests[-1]["messages"]

    assert [m["role"] for m in sent] == ["user", "assistant", "user", "assistant", "user"]
    use = sent[1]["content"][-1]
    assert use == {
        "type": "tool_use",
        "id": "toolu_01",
        "name": "search_pubmed",
        "input": {"query": "CRISPR"},
    }
    result = sent[2]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_01"
    assert result["content"] == "3 articles"
    final = json.dumps(sent[3]["content"])
    assert "Here is a plan." in final
    assert "base editing" in final
    assert "The user rejected the proposed schema_proposal." in final


async def test_openai_receives_tool_calls_results_and_the_proposals_fate() -> None:
    async with FakeOpenAI([text("OK")]) as fake:
        model = OpenAIModel("gpt-test", api_key="sk-test", base_url=fake.base_url)
        try:
            _ = [event async for event in model.stream(_request())]
        finally:
            await model.aclose()
        sent: list[dict[str, Any]] = fake.requests[-1].body["messages"]

    roles = [m["role"] for m in sent]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user"]
    [call] = sent[2]["tool_calls"]
    assert call["id"] == "toolu_01" and call["function"]["name"] == "search_pubmed"
    assert json.loads(call["function"]["arguments"]) == {"query": "CRISPR"}
    assert sent[3]["tool_call_id"] == "toolu_01" and sent[3]["content"] == "3 articles"
    assert "The user rejected the proposed schema_proposal." in sent[4]["content"]
    assert "base editing" in sent[4]["content"]


def _choices_answer() -> list[MessagePublic]:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    block = '```choices\n{"question": "Which?", "options": [{"label": "A", "value": "a"}]}\n```'
    choose = ToolHistoryEntry(
        tool_name="present_choices",
        input={"question": "Which?", "options": [{"label": "A", "value": "a"}]},
        output=block,
        tool_use_id="toolu_09",
        in_answer=True,
    )
    return [
        MessagePublic(id="m1", role="user", content="Help me pick", created_at=at),
        MessagePublic(
            id="m2",
            role="assistant",
            content=f"Two ways.\n\n{block}",
            created_at=at,
            tool_history=[choose],
        ),
    ]


async def test_a_choice_shown_in_the_answer_reaches_anthropic_as_a_call_with_its_result() -> None:
    messages = [*build_history(_choices_answer()), UserTurn("a")]
    request = ModelRequest(system="You help.", messages=messages, tools=[SEARCH])
    with FakeAnthropic(reply("OK")) as fake:
        model = AnthropicModel("claude-test", api_key="sk-ant-test", base_url=fake.base_url)
        try:
            _ = [event async for event in model.stream(request)]
        finally:
            await model.aclose()
        sent: list[dict[str, Any]] = fake.requests[-1]["messages"]

    assert [m["role"] for m in sent] == ["user", "assistant", "user", "assistant", "user"]
    assert sent[1]["content"][0] == {"type": "text", "text": "Two ways."}
    assert sent[1]["content"][-1]["name"] == "present_choices"
    assert sent[2]["content"][0]["tool_use_id"] == "toolu_09"
    assert "```choices" in json.dumps(sent[3]["content"])
