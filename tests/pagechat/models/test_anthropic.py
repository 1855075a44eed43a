"""AnthropicModel through the real `anthropic` SDK against a fake Messages API."""

from __future__ import annotations

import asyncio
import email.utils
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import anthropic
import pytest

from pagechat.models.anthropic import AnthropicModel
from pagechat.models.base import (
    AssistantTurn,
    ModelEvent,
    ModelFinish,
    ModelMessage,
    ModelRequest,
    ModelThinking,
    ModelToolCall,
    ReasoningDelta,
    TextDelta,
    ThinkingPart,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    ToolSpec,
    UserTurn,
)
from pagechat.models.errors import ModelOutputError, ProviderError
from pagechat.models.retry import RetryPolicy, stream_with_retry
from tests.fakes.anthropic_server import (
    Cut,
    ErrorEvent,
    FakeAnthropic,
    HttpError,
    Ping,
    RedactedThinking,
    Stall,
    Thinking,
    ToolUse,
    overloaded,
    rate_limited,
    reply,
    signature_for,
    unauthorized,
)
from tests.support.secrets import leaks

KEY = "sk-ant-test-0123456789secret"
SEARCH = ToolSpec(
    "search_pubmed",
    "Search PubMed articles.",
    {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        yield fake


@pytest.fixture
def fake(server: FakeAnthropic) -> FakeAnthropic:
    server.reset()
    return server


@pytest.fixture
async def model(fake: FakeAnthropic) -> AsyncIterator[AnthropicModel]:
    m = AnthropicModel("claude-haiku-4-5", api_key=KEY, base_url=fake.base_url, read_timeout=5)
    yield m
    await m.aclose()


def ask(
    text: str = "Find papers on CRISPR",
    *,
    tools: Sequence[ToolSpec] = (),
    tool_choice: Literal["auto", "none"] = "auto",
) -> ModelRequest:
    return ModelRequest(
        system="You are helpful.", messages=[UserTurn(text)], tools=tools, tool_choice=tool_choice
    )


async def collect(stream: AsyncIterator[ModelEvent]) -> list[ModelEvent]:
    return [event async for event in stream]


async def collect_until_error(
    stream: AsyncIterator[ModelEvent],
) -> tuple[list[ModelEvent], Exception]:
    events: list[ModelEvent] = []
    try:
        async for event in stream:
            events.append(event)
    except Exception as err:
        return events, err
    raise AssertionError(f"the stream ended without an error: {events}")


def text_of(events: Sequence[ModelEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


# -- streaming ---------------------------------------------------------------


async def test_text_arrives_as_deltas_in_order(fake: FakeAnthropic, model: AnthropicModel) -> None:
    fake.add(reply("Hello", ", ", "world."))

    events = await collect(model.stream(ask()))

    assert events[:3] == [TextDelta(text="Hello"), TextDelta(text=", "), TextDelta(text="world.")]
    assert isinstance(events[3], ModelFinish)
    assert events[3].stop_reason == "end_turn"
    assert len(events) == 4


async def test_tool_input_split_across_fragments_becomes_one_call(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    tool_input = {"query": "CRISPR base editing", "filters": {"year": [2020, 2024]}, "limit": 5}
    fake.add(reply(ToolUse("search_pubmed", tool_input, id="toolu_01", fragments=7)))

    events = await collect(model.stream(ask(tools=[SEARCH])))

    assert events[0] == ModelToolCall(id="toolu_01", name="search_pubmed", input=tool_input)
    assert isinstance(events[1], ModelFinish)
    assert events[1].stop_reason == "tool_use"


async def test_two_tool_calls_in_one_message_come_in_order(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(
        reply(
            ToolUse("search_pubmed", {"query": "a"}, id="toolu_a"),
            ToolUse("search_pubmed", {"query": "b"}, id="toolu_b"),
        )
    )

    events = await collect(model.stream(ask(tools=[SEARCH])))

    assert events[:2] == [
        ModelToolCall(id="toolu_a", name="search_pubmed", input={"query": "a"}),
        ModelToolCall(id="toolu_b", name="search_pubmed", input={"query": "b"}),
    ]


async def test_text_then_tool_call(fake: FakeAnthropic, model: AnthropicModel) -> None:
    fake.add(reply("Let me ", "search.", ToolUse("search_pubmed", {"query": "x"}, id="toolu_1")))

    events = await collect(model.stream(ask(tools=[SEARCH])))

    assert events[:3] == [
        TextDelta(text="Let me "),
        TextDelta(text="search."),
        ModelToolCall(id="toolu_1", name="search_pubmed", input={"query": "x"}),
    ]
    assert isinstance(events[3], ModelFinish)
    assert events[3].stop_reason == "tool_use"


async def test_tool_without_input_gets_an_empty_object(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply(ToolUse("list_streams", raw_json="", id="toolu_1")))

    events = await collect(model.stream(ask(tools=[SEARCH])))

    assert events[0] == ModelToolCall(id="toolu_1", name="list_streams", input={})


@pytest.mark.parametrize(
    ("api_reason", "expected"),
    [
        ("end_turn", "end_turn"),
        ("tool_use", "tool_use"),
        ("max_tokens", "max_tokens"),
        ("stop_sequence", "stop_sequence"),
        ("refusal", "refusal"),
        ("model_context_window_exceeded", "max_tokens"),
        ("pause_turn", "other"),
    ],
)
async def test_stop_reason_is_mapped(
    fake: FakeAnthropic, model: AnthropicModel, api_reason: str, expected: str
) -> None:
    fake.add(reply("Some text", stop_reason=api_reason))

    events = await collect(model.stream(ask()))

    assert isinstance(events[-1], ModelFinish)
    assert events[-1].stop_reason == expected


async def test_usage_has_input_from_message_start_and_output_from_message_delta(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Hi", input_tokens=1234, output_tokens=56))

    events = await collect(model.stream(ask()))

    finish = events[-1]
    assert isinstance(finish, ModelFinish) and finish.stop_reason == "end_turn"
    assert (finish.usage.input_tokens, finish.usage.output_tokens) == (1234, 56)


def _unmarked(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages without their cache breakpoints (tested on their own below)."""
    return [
        {
            **m,
            "content": [{k: v for k, v in b.items() if k != "cache_control"} for b in m["content"]],
        }
        for m in messages
    ]


# -- extended thinking -------------------------------------------------------------

BUDGET = 2048


@pytest.fixture
async def thinker(fake: FakeAnthropic) -> AsyncIterator[AnthropicModel]:
    m = AnthropicModel(
        "claude-sonnet-4-6",
        api_key=KEY,
        base_url=fake.base_url,
        read_timeout=5,
        thinking_budget=BUDGET,
    )
    yield m
    await m.aclose()


async def test_thinking_streams_as_reasoning_then_the_whole_block(
    fake: FakeAnthropic, thinker: AnthropicModel
) -> None:
    thought = "The user wants CRISPR papers; search first."
    fake.add(reply(Thinking(thought, fragments=3), "Here ", "they are."))

    events = await collect(thinker.stream(ask()))

    reasoning = [e for e in events if isinstance(e, ReasoningDelta)]
    assert len(reasoning) == 3 and "".join(r.text for r in reasoning) == thought
    whole = ModelThinking(part=ThinkingPart(thinking=thought, signature=signature_for(thought)))
    assert events[3:] == [whole, TextDelta(text="Here "), TextDelta(text="they are."), events[-1]]
    sent = fake.requests[0]
    assert sent["thinking"] == {"type": "enabled", "budget_tokens": BUDGET}
    # The answer keeps its own budget on top of the thinking's.
    assert sent["max_tokens"] == ask().max_tokens + BUDGET


async def test_thinking_is_off_by_default(fake: FakeAnthropic, model: AnthropicModel) -> None:
    fake.add(reply("Hi."))
    await collect(model.stream(ask()))
    assert "thinking" not in fake.requests[0]


async def test_thinking_request_sends_no_temperature(
    fake: FakeAnthropic, thinker: AnthropicModel
) -> None:
    fake.add(reply("Hi."))
    request = ModelRequest(system="s", messages=[UserTurn("Hi")], temperature=0.2)
    events = await collect(thinker.stream(request))
    assert isinstance(events[-1], ModelFinish)
    assert "temperature" not in fake.requests[0]


async def _tool_turn_with_thinking(
    fake: FakeAnthropic, thinker: AnthropicModel, *items: Thinking | RedactedThinking
) -> AssistantTurn:
    """A first call that thinks and calls a tool: the assistant turn to send back."""
    fake.add(reply(*items, ToolUse("search_pubmed", {"query": "x"}, id="toolu_t")))
    events = await collect(thinker.stream(ask(tools=[SEARCH])))
    parts = tuple(e.part for e in events if isinstance(e, ModelThinking))
    calls = tuple(
        ToolCallPart(e.id, e.name, e.input) for e in events if isinstance(e, ModelToolCall)
    )
    return AssistantTurn("", calls, thinking=parts)


def _after(turn: AssistantTurn) -> ModelRequest:
    results = ToolResultsTurn((ToolResultPart("toolu_t", "3 articles"),))
    return ModelRequest(
        system="You are helpful.",
        messages=[UserTurn("Find papers on CRISPR"), turn, results],
        tools=[SEARCH],
    )


async def test_thinking_goes_back_unchanged_with_the_tool_turn(
    fake: FakeAnthropic, thinker: AnthropicModel
) -> None:
    thought = "Search PubMed for CRISPR."
    turn = await _tool_turn_with_thinking(fake, thinker, Thinking(thought))
    fake.add(reply("Found 3."))

    events = await collect(thinker.stream(_after(turn)))

    assert text_of(events) == "Found 3."
    sent = fake.requests[1]["messages"][1]["content"]
    assert sent[0] == {"type": "thinking", "thinking": thought, "signature": signature_for(thought)}
    assert sent[1]["type"] == "tool_use"


async def test_redacted_thinking_goes_back_unchanged(
    fake: FakeAnthropic, thinker: AnthropicModel
) -> None:
    turn = await _tool_turn_with_thinking(fake, thinker, RedactedThinking("b3BhcXVl"))
    fake.add(reply("Found 3."))

    events = await collect(thinker.stream(_after(turn)))

    assert text_of(events) == "Found 3."
    sent = fake.requests[1]["messages"][1]["content"]
    assert sent[0] == {"type": "redacted_thinking", "data": "b3BhcXVl"}


async def test_a_tool_turn_that_lost_its_thinking_goes_on_without_thinking(
    fake: FakeAnthropic, thinker: AnthropicModel
) -> None:
    # A takeover rebuilds calls from the run log, which keeps no signature: the API
    # would refuse such a turn with thinking on (the fake does, as it does).
    turn = await _tool_turn_with_thinking(fake, thinker, Thinking("Search."))
    fake.add(reply("Found 3."))

    events = await collect(thinker.stream(_after(AssistantTurn("", turn.tool_calls))))

    assert text_of(events) == "Found 3."
    assert "thinking" not in fake.requests[1]


async def test_a_continue_prefill_with_thinking_on_goes_on_without_thinking(
    fake: FakeAnthropic, thinker: AnthropicModel
) -> None:
    fake.add(reply(" and two reviews."))
    partial = AssistantTurn("Found 3 trials", partial=True)
    request = ModelRequest(system="s", messages=[UserTurn("Find papers"), partial])

    events = await collect(thinker.stream(request))

    assert text_of(events) == " and two reviews."
    sent = fake.requests[0]
    assert "thinking" not in sent
    assert sent["messages"][-1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Found 3 trials"}],
    }


async def test_the_fake_refuses_a_prefill_when_thinking_is_on(fake: FakeAnthropic) -> None:
    # The rule the two tests above keep: the real API refuses this request.
    client = anthropic.AsyncAnthropic(api_key=KEY, base_url=fake.base_url, max_retries=0)
    fake.add(reply("never"))
    with pytest.raises(anthropic.BadRequestError, match="must start with a thinking block"):
        await client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            thinking={"type": "enabled", "budget_tokens": BUDGET},
            messages=[
                {"role": "user", "content": "Find papers"},
                {"role": "assistant", "content": "Found 3 trials"},
            ],
        )
    await client.close()


async def test_a_tool_turn_with_altered_thinking_is_refused(
    fake: FakeAnthropic, thinker: AnthropicModel
) -> None:
    turn = await _tool_turn_with_thinking(fake, thinker, Thinking("Search."))
    altered = ThinkingPart(thinking="Search now.", signature=turn.thinking[0].signature)
    fake.add(reply("Found 3."))

    stream = thinker.stream(_after(AssistantTurn("", turn.tool_calls, thinking=(altered,))))
    _, err = await collect_until_error(stream)

    assert isinstance(err, ProviderError) and err.kind == "bad_request"
    assert "Invalid `signature`" in str(err)


# -- prompt caching --------------------------------------------------------------


STABLE = "You are Horizon's assistant. " * 40


def _turn(context: str, *history: ModelMessage) -> ModelRequest:
    system = f"{STABLE}\n\n## Page context\n{context}"
    return ModelRequest(
        system=system, messages=list(history), tools=[SEARCH], cache_prefix=len(STABLE)
    )


async def test_the_stable_prompt_and_the_history_end_in_cache_breakpoints(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Done."))
    await collect(
        model.stream(
            _turn("Report 3.", UserTurn("Hi"), AssistantTurn("Hello"), UserTurn("Summarise it"))
        )
    )

    sent = fake.requests[0]
    assert sent["system"] == [
        {"type": "text", "text": STABLE, "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "## Page context\nReport 3."},
    ]
    marked = [
        (i, block["text"])
        for i, message in enumerate(sent["messages"])
        for block in message["content"]
        if "cache_control" in block
    ]
    assert marked == [(2, "Summarise it")]


async def test_a_continue_prefill_is_not_a_breakpoint_the_question_before_it_is(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply(" more."))
    await collect(
        model.stream(_turn("x", UserTurn("Go"), AssistantTurn("Half of it", partial=True)))
    )

    user, prefill = fake.requests[0]["messages"]
    assert user["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in prefill["content"][-1]


async def test_a_second_turn_on_the_same_page_reads_the_prompt_from_the_cache(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("First.", input_tokens=5000), reply("Second.", input_tokens=5000))
    first = await collect(model.stream(_turn("Report 3.", UserTurn("Summarise it"))))
    history = (UserTurn("Summarise it"), AssistantTurn("First."), UserTurn("And the methods?"))
    second = await collect(model.stream(_turn("Report 3.", *history)))

    one, two = (e[-1].usage for e in (first, second) if isinstance(e[-1], ModelFinish))
    assert one.cache_read_tokens == 0 and one.cache_write_tokens > len(STABLE) // 4
    # Tools, the stable prompt, the page context and the first question come from the cache.
    assert two.cache_read_tokens >= one.cache_write_tokens
    assert two.input_tokens == 5000 and two.cache_write_tokens > 0


async def test_a_changed_page_context_still_reads_the_stable_prompt_from_the_cache(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("A.", input_tokens=5000), reply("B.", input_tokens=5000))
    await collect(model.stream(_turn("Report 3.", UserTurn("Summarise it"))))
    events = await collect(model.stream(_turn("Report 4.", UserTurn("Summarise it"))))

    usage = events[-1].usage if isinstance(events[-1], ModelFinish) else None
    assert usage is not None and len(STABLE) // 4 <= usage.cache_read_tokens < 5000
    assert fake.requests[0]["system"][0] == fake.requests[1]["system"][0]


async def test_prompt_cache_off_sends_the_system_prompt_as_one_string(fake: FakeAnthropic) -> None:
    fake.add(reply("Done."))
    model = AnthropicModel(
        "claude-haiku-4-5", api_key="test", base_url=fake.base_url, prompt_cache=False
    )
    try:
        await collect(model.stream(_turn("Report 3.", UserTurn("Hi"))))
    finally:
        await model.aclose()

    sent = fake.requests[0]
    assert sent["system"] == f"{STABLE}\n\n## Page context\nReport 3."
    assert "cache_control" not in str(sent["messages"])


async def test_pings_are_ignored(fake: FakeAnthropic, model: AnthropicModel) -> None:
    fake.add(reply(Ping(), "a", Ping(), "b", Ping()))

    events = await collect(model.stream(ask()))

    assert events[:2] == [TextDelta(text="a"), TextDelta(text="b")]
    assert len(events) == 3


async def test_tool_input_that_is_not_json_is_a_model_output_error(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Searching", ToolUse("search_pubmed", raw_json='{"query": "CRI')))

    events, err = await collect_until_error(model.stream(ask(tools=[SEARCH])))

    assert text_of(events) == "Searching"
    assert isinstance(err, ModelOutputError)
    assert "search_pubmed" in str(err)


async def test_tool_input_that_is_not_an_object_is_a_model_output_error(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply(ToolUse("search_pubmed", raw_json='["CRISPR"]')))

    _, err = await collect_until_error(model.stream(ask(tools=[SEARCH])))

    assert isinstance(err, ModelOutputError)


# -- the request ---------------------------------------------------------------


async def test_request_body_has_the_messages_api_shape(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Done."))
    request = ModelRequest(
        system="You are Horizon's assistant.",
        messages=[
            UserTurn("Find CRISPR papers"),
            AssistantTurn(
                "Searching.",
                (
                    ToolCallPart("toolu_1", "search_pubmed", {"query": "CRISPR"}),
                    ToolCallPart("toolu_2", "search_pubmed", {"query": "Cas9"}),
                ),
            ),
            ToolResultsTurn(
                (ToolResultPart("toolu_1", "3 articles"), ToolResultPart("toolu_2", "boom", True))
            ),
            UserTurn("And newer ones?"),
        ],
        tools=[SEARCH],
        max_tokens=1000,
        temperature=0.2,
        tool_choice="none",
    )

    await collect(model.stream(request))

    assert fake.requests == [
        {
            "model": "claude-haiku-4-5",
            "max_tokens": 1000,
            "stream": True,
            "temperature": 0.2,
            "system": "You are Horizon's assistant.",
            "tools": [
                {
                    "name": "search_pubmed",
                    "description": "Search PubMed articles.",
                    "input_schema": SEARCH.input_schema,
                }
            ],
            "tool_choice": {"type": "none"},
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Find CRISPR papers"}]},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Searching."},
                        {
                            "type": "tool_use",
                            "id": "toolu_1",
                            "name": "search_pubmed",
                            "input": {"query": "CRISPR"},
                        },
                        {
                            "type": "tool_use",
                            "id": "toolu_2",
                            "name": "search_pubmed",
                            "input": {"query": "Cas9"},
                        },
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_1",
                            "content": "3 articles",
                            "is_error": False,
                        },
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_2",
                            "content": "boom",
                            "is_error": True,
                        },
                        {
                            "type": "text",
                            "text": "And newer ones?",
                            "cache_control": {"type": "ephemeral"},
                        },
                    ],
                },
            ],
        }
    ]


async def test_request_without_tools_sends_neither_tools_nor_tool_choice(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("a"), reply("b"))

    await collect(model.stream(ask(tool_choice="none")))
    await collect(model.stream(ask(tools=[SEARCH], tool_choice="auto")))

    assert "tools" not in fake.requests[0]
    assert "tool_choice" not in fake.requests[0]
    assert "temperature" not in fake.requests[0]
    assert "tool_choice" not in fake.requests[1]


async def test_consecutive_turns_of_one_role_are_merged_and_empty_ones_dropped(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("ok"))
    request = ModelRequest(
        system="",
        messages=[UserTurn("first"), UserTurn(""), UserTurn("second"), AssistantTurn("")],
    )

    await collect(model.stream(request))

    assert "system" not in fake.requests[0]
    assert _unmarked(fake.requests[0]["messages"]) == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}],
        }
    ]


async def test_tool_results_go_first_in_their_user_message(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    # The API rejects a user message whose tool_result blocks follow other content.
    fake.add(reply("ok"))
    request = ModelRequest(
        system="",
        messages=[
            UserTurn("Search"),
            AssistantTurn("", (ToolCallPart("toolu_1", "search_pubmed", {"query": "x"}),)),
            UserTurn("(meanwhile, the user typed this)"),
            ToolResultsTurn((ToolResultPart("toolu_1", ""),)),
        ],
        tools=[SEARCH],
    )

    await collect(model.stream(request))

    assert _unmarked(fake.requests[0]["messages"])[2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": False},
            {"type": "text", "text": "(meanwhile, the user typed this)"},
        ],
    }


async def test_api_key_and_base_url_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with FakeAnthropic(reply("from env"), api_key="sk-ant-from-env") as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        model = AnthropicModel("claude-haiku-4-5")

        events = await collect(model.stream(ask()))
        await model.aclose()

    assert text_of(events) == "from env"


@pytest.fixture
def no_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An environment without any Anthropic credentials, and an empty home."""
    for name in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_PROFILE",
        "ANTHROPIC_CONFIG_DIR",
        "ANTHROPIC_FEDERATION_RULE_ID",
        "ANTHROPIC_IDENTITY_TOKEN",
        "ANTHROPIC_IDENTITY_TOKEN_FILE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


async def test_missing_api_key_is_an_auth_error(no_credentials: Path, fake: FakeAnthropic) -> None:
    model = AnthropicModel("claude-haiku-4-5", base_url=fake.base_url)

    _, err = await collect_until_error(model.stream(ask()))

    assert isinstance(err, ProviderError)
    assert err.kind == "auth"
    assert "ANTHROPIC_API_KEY" in str(err)
    assert fake.requests == []


async def test_broken_credentials_profile_is_an_auth_error_at_call_time(
    no_credentials: Path, monkeypatch: pytest.MonkeyPatch, fake: FakeAnthropic
) -> None:
    # A config dir that names no usable profile: the SDK refuses to build a client.
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(no_credentials))
    model = AnthropicModel("claude-haiku-4-5", base_url=fake.base_url)

    _, err = await collect_until_error(model.stream(ask()))

    assert isinstance(err, ProviderError)
    assert err.kind == "auth"
    assert fake.requests == []


# -- faults ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error_type", "kind"), [("overloaded_error", "overloaded"), ("api_error", "stream")]
)
async def test_error_event_mid_stream_fails_after_the_text_already_streamed(
    fake: FakeAnthropic, model: AnthropicModel, error_type: str, kind: str
) -> None:
    fake.add(reply("The first ", "half", ErrorEvent(error_type, "Something went wrong")))

    events, err = await collect_until_error(model.stream(ask()))

    assert text_of(events) == "The first half"
    assert isinstance(err, ProviderError)
    assert err.kind == kind
    assert "Something went wrong" in str(err)


async def test_rate_limit_is_retried_after_the_retry_after_header(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(rate_limited(retry_after=0.3), reply("Second time lucky."))
    waits: list[float] = []
    started = time.monotonic()

    events = await collect(
        stream_with_retry(model, ask(), RetryPolicy(), on_retry=lambda _, d: waits.append(d))
    )

    assert text_of(events) == "Second time lucky."
    assert waits == [pytest.approx(0.3)]
    assert time.monotonic() - started >= 0.3
    assert len(fake.requests) == 2


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        pytest.param(lambda: {"retry-after": "30"}, 30, id="seconds"),
        pytest.param(
            lambda: {"retry-after": email.utils.formatdate(time.time() + 30, usegmt=True)},
            30,
            id="http-date",
        ),
        pytest.param(lambda: {"retry-after-ms": "1500", "retry-after": "2"}, 1.5, id="ms"),
    ],
)
async def test_rate_limit_error_carries_the_wait_the_api_asked_for(
    fake: FakeAnthropic,
    model: AnthropicModel,
    headers: Callable[[], dict[str, str]],
    seconds: float,
) -> None:
    fake.add(HttpError(429, "rate_limit_error", "Too many requests", headers()))

    _, err = await collect_until_error(model.stream(ask()))

    assert isinstance(err, ProviderError)
    assert (err.kind, err.status_code) == ("rate_limit", 429)
    # An HTTP date has whole seconds and is read a moment after it was written.
    assert err.retry_after == pytest.approx(seconds, abs=2)


async def test_overloaded_until_the_retry_bound_fails_as_overloaded(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(overloaded(), overloaded(), overloaded(), reply("never reached"))
    policy = RetryPolicy(max_attempts=3, base_delay=0.01)

    _, err = await collect_until_error(stream_with_retry(model, ask(), policy))

    assert isinstance(err, ProviderError)
    assert (err.kind, err.status_code) == ("overloaded", 529)
    assert len(fake.requests) == 3


async def test_unauthorized_is_not_retried_and_never_shows_the_key(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(unauthorized(f"invalid x-api-key: {KEY}"), reply("never reached"))

    _, err = await collect_until_error(stream_with_retry(model, ask(), RetryPolicy()))

    assert isinstance(err, ProviderError)
    assert (err.kind, err.status_code) == ("auth", 401)
    assert KEY not in str(err)
    assert len(fake.requests) == 1


@pytest.mark.parametrize(
    ("response", "kind"),
    [
        (HttpError(500, "api_error", "Internal server error"), "server"),
        (HttpError(503, "api_error", "Service unavailable"), "server"),
        (HttpError(403, "permission_error", "Not allowed"), "auth"),
        (HttpError(400, "invalid_request_error", "max_tokens: too large"), "bad_request"),
        (HttpError(404, "not_found_error", "model: claude-nope"), "bad_request"),
    ],
)
async def test_http_errors_are_classified(
    fake: FakeAnthropic, model: AnthropicModel, response: HttpError, kind: str
) -> None:
    fake.add(response)

    _, err = await collect_until_error(model.stream(ask()))

    assert isinstance(err, ProviderError)
    assert (err.kind, err.status_code) == (kind, response.status)
    assert response.message in str(err)


async def test_connection_refused_is_a_connection_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # Nothing listens on the port any more.
    model = AnthropicModel("claude-haiku-4-5", api_key=KEY, base_url=f"http://127.0.0.1:{port}")

    _, err = await collect_until_error(model.stream(ask()))
    await model.aclose()

    assert isinstance(err, ProviderError)
    assert err.kind == "connection"
    assert err.retryable


async def test_connection_dropped_mid_text_fails_after_the_text(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Half an ", "answer", Cut()))

    events, err = await collect_until_error(model.stream(ask()))

    assert text_of(events) == "Half an answer"
    assert isinstance(err, ProviderError)
    assert err.kind == "connection"


async def test_stream_ending_without_message_stop_is_a_stream_error(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Half an ", "answer", Cut(clean=True)))

    events, err = await collect_until_error(model.stream(ask()))

    assert text_of(events) == "Half an answer"
    assert isinstance(err, ProviderError)
    assert err.kind == "stream"


async def test_stalled_stream_times_out(fake: FakeAnthropic) -> None:
    fake.add(reply("Thinking", Stall(30)))
    model = AnthropicModel(
        "claude-haiku-4-5", api_key=KEY, base_url=fake.base_url, read_timeout=0.3
    )

    events, err = await collect_until_error(model.stream(ask()))
    await model.aclose()

    assert text_of(events) == "Thinking"
    assert isinstance(err, ProviderError)
    assert err.kind == "timeout"


async def test_no_response_headers_in_time_is_a_timeout(fake: FakeAnthropic) -> None:
    fake.add(reply("late", headers_delay=30))
    model = AnthropicModel(
        "claude-haiku-4-5", api_key=KEY, base_url=fake.base_url, read_timeout=0.3
    )

    _, err = await collect_until_error(model.stream(ask()))
    await model.aclose()

    assert isinstance(err, ProviderError)
    assert err.kind == "timeout"


# -- closing -----------------------------------------------------------------------
# The fake stalls for 30 s after the first delta, so a disconnect seen within a
# second can only come from the client closing the response when told to.


async def test_cancelling_the_consumer_closes_the_upstream_connection(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Working on it", Stall(30)))
    first = asyncio.Event()

    async def consume() -> None:
        async for _ in model.stream(ask()):
            first.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(first.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert await fake.disconnected(within=1.0)
    assert fake.disconnects == 1


async def test_closing_the_stream_closes_the_upstream_connection(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("Working on it", Stall(30)))
    stream = model.stream(ask())

    assert await anext(stream) == TextDelta(text="Working on it")
    await stream.aclose()  # type: ignore[attr-defined]

    assert await fake.disconnected(within=1.0)


async def test_a_finished_stream_does_not_count_as_a_disconnect(
    fake: FakeAnthropic, model: AnthropicModel
) -> None:
    fake.add(reply("one"), reply("two"))

    await collect(model.stream(ask()))
    await collect(model.stream(ask()))

    assert not await fake.disconnected(within=0.05)


@pytest.mark.parametrize("form", list(leaks(KEY)))
async def test_a_key_quoted_in_any_form_by_the_api_never_reaches_the_error(
    fake: FakeAnthropic, model: AnthropicModel, form: str
) -> None:
    fake.add(HttpError(400, "invalid_request_error", leaks(KEY)[form]))

    _, err = await collect_until_error(stream_with_retry(model, ask(), RetryPolicy()))

    assert isinstance(err, ProviderError) and err.kind == "bad_request"
    for n in range(len(KEY) - 6):
        assert KEY[n : n + 6] not in str(err)
