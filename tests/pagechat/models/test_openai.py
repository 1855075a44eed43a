"""The OpenAI-compatible provider, driven through the real `openai` SDK.

The SDK talks HTTP to `FakeOpenAI`, a local server that speaks the real
chat-completions streaming format, so everything between our code and the
socket is the code that runs in production.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from pagechat.models import (
    AssistantTurn,
    ModelEvent,
    ModelFinish,
    ModelOutputError,
    ModelRequest,
    ModelToolCall,
    ProviderError,
    ReasoningDelta,
    TextDelta,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    ToolSpec,
    UserTurn,
    _transport,
)
from pagechat.models import openai as openai_provider
from pagechat.models.openai import LOCAL_API_KEY, OpenAIModel
from pagechat.models.retry import RetryPolicy, stream_with_retry
from tests.fakes.openai_server import (
    Chunk,
    Data,
    Done,
    FakeOpenAI,
    Reply,
    Usage,
    closed_port_url,
    cut,
    error_mid_stream,
    http_error,
    overloaded,
    rate_limited,
    stall,
    text,
    tool_call,
    tool_calls,
    unauthorized,
)
from tests.support.secrets import leaks

API_KEY = "sk-test-0123456789abcdefSECRET"
HELLO = ModelRequest(system="Be brief.", messages=[UserTurn("Hi")])
SEARCH = ToolSpec(
    "search", "Search articles", {"type": "object", "properties": {"q": {"type": "string"}}}
)


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
async def model(server: FakeOpenAI) -> AsyncIterator[OpenAIModel]:
    m = OpenAIModel("gpt-test", api_key=API_KEY, base_url=server.base_url, read_timeout=5)
    yield m
    await m.aclose()


async def _events(model: OpenAIModel, request: ModelRequest = HELLO) -> list[ModelEvent]:
    return [event async for event in model.stream(request)]


def _text(events: list[ModelEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def _finish(events: list[ModelEvent]) -> ModelFinish:
    assert isinstance(events[-1], ModelFinish)
    return events[-1]


async def _failure(model: OpenAIModel) -> tuple[str, ProviderError]:
    """The text that reached the consumer before the call failed, and the failure."""
    seen: list[ModelEvent] = []
    with pytest.raises(ProviderError) as caught:
        async for event in model.stream(HELLO):
            seen.append(event)
    return _text(seen), caught.value


# --- streaming ----------------------------------------------------------


async def test_text_streams_as_deltas_in_order(server: FakeOpenAI, model: OpenAIModel) -> None:
    server.push(text("Hel", "lo, ", "world."))
    events = await _events(model)
    assert events[:-1] == [TextDelta(text="Hel"), TextDelta(text="lo, "), TextDelta(text="world.")]
    assert _finish(events).stop_reason == "end_turn"


async def test_reasoning_content_streams_as_reasoning_before_the_text(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(text("Four.", reasoning=["Two and ", "two ", "make four."]))
    events = await _events(model)
    assert events[:-1] == [
        ReasoningDelta(text="Two and "),
        ReasoningDelta(text="two "),
        ReasoningDelta(text="make four."),
        TextDelta(text="Four."),
    ]
    assert _finish(events).stop_reason == "end_turn"


async def test_reasoning_named_reasoning_streams_as_reasoning(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(text("Yes.", reasoning=["Checking."], reasoning_field="reasoning"))
    events = await _events(model)
    assert events[:-1] == [ReasoningDelta(text="Checking."), TextDelta(text="Yes.")]


async def test_tool_call_is_assembled_from_fragments(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    call = tool_call("search", {"q": "CRISPR base editing", "limit": 5}, id="call_1", pieces=6)
    assert len(call.fragments) == 6
    server.push(tool_calls(call, text=["Let me look."]))
    events = await _events(model)
    assert events[:-1] == [
        TextDelta(text="Let me look."),
        ModelToolCall(id="call_1", name="search", input={"q": "CRISPR base editing", "limit": 5}),
    ]
    assert _finish(events).stop_reason == "tool_use"


async def test_parallel_tool_calls_with_interleaved_fragments_come_whole_in_index_order(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    first = tool_call("search", {"q": "p53"}, id="call_a", pieces=4)
    second = tool_call("fetch", {"pmid": "123", "full": True}, id="call_b", pieces=4)
    server.push(tool_calls(first, second, interleave=True))
    events = await _events(model)
    assert events[:-1] == [
        ModelToolCall(id="call_a", name="search", input={"q": "p53"}),
        ModelToolCall(id="call_b", name="fetch", input={"pmid": "123", "full": True}),
    ]


async def test_empty_tool_arguments_are_an_empty_object(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(tool_calls(tool_call("list_streams", "", id="call_1")))
    events = await _events(model)
    assert events[0] == ModelToolCall(id="call_1", name="list_streams", input={})


async def test_tool_arguments_that_are_not_json_are_a_model_output_error(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(tool_calls(tool_call("search", '{"q": "unfinished', id="call_1")))
    with pytest.raises(ModelOutputError, match="search"):
        await _events(model)


@pytest.mark.parametrize(
    ("finish_reason", "stop_reason"),
    [
        ("stop", "end_turn"),
        ("tool_calls", "tool_use"),
        ("function_call", "tool_use"),
        ("length", "max_tokens"),
        ("content_filter", "refusal"),
        ("abort", "other"),
    ],
)
async def test_finish_reason_becomes_the_stop_reason(
    server: FakeOpenAI, model: OpenAIModel, finish_reason: str, stop_reason: str
) -> None:
    server.push(text("Some text", finish_reason=finish_reason))
    assert _finish(await _events(model)).stop_reason == stop_reason


async def test_refusal_text_is_shown_and_marks_a_refusal(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    refusal = Chunk({"refusal": "I can't help with that."})
    server.push(Reply((Chunk({"role": "assistant"}), refusal, Chunk({}, "stop"), Done())))
    events = await _events(model)
    assert _text(events) == "I can't help with that."
    assert _finish(events).stop_reason == "refusal"


async def test_usage_comes_from_the_final_chunk(server: FakeOpenAI, model: OpenAIModel) -> None:
    server.push(text("Hi", usage=(321, 45)))
    usage = _finish(await _events(model)).usage
    assert (usage.input_tokens, usage.output_tokens) == (321, 45)


async def test_cached_prompt_tokens_are_read_from_the_usage_details(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(Reply((*text("Hi").steps[:-2], Usage(2048, 5, cached_tokens=1920), Done())))
    usage = _finish(await _events(model)).usage
    assert (usage.input_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (
        2048,
        1920,
        0,
    )


# --- the request ----------------------------------------------------------


async def test_request_carries_history_tools_and_settings(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(text("Summary."))
    request = ModelRequest(
        system="You are Horizon.",
        messages=[
            UserTurn("Find p53 papers"),
            AssistantTurn(
                "Searching.",
                (
                    ToolCallPart("call_1", "search", {"q": "p53"}),
                    ToolCallPart("call_2", "search", {"q": "TP53"}),
                ),
            ),
            ToolResultsTurn(
                (
                    ToolResultPart("call_1", "3 articles"),
                    ToolResultPart("call_2", "PubMed is down", is_error=True),
                )
            ),
        ],
        tools=[SEARCH],
        max_tokens=512,
        temperature=0.2,
        tool_choice="none",
    )
    await _events(model, request)

    [sent] = server.requests
    body = sent.body
    assert sent.headers["authorization"] == f"Bearer {API_KEY}"
    assert body["model"] == "gpt-test"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_tokens"] == 512
    assert body["temperature"] == 0.2
    assert body["tool_choice"] == "none"
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "search",
                "description": "Search articles",
                "parameters": SEARCH.input_schema,
            },
        }
    ]
    assert body["messages"] == [
        {"role": "system", "content": "You are Horizon."},
        {"role": "user", "content": "Find p53 papers"},
        {
            "role": "assistant",
            "content": "Searching.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "search", "arguments": '{"q": "p53"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "search", "arguments": '{"q": "TP53"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "3 articles"},
        {"role": "tool", "tool_call_id": "call_2", "content": "Error: PubMed is down"},
    ]


async def test_request_without_tools_sends_neither_tools_nor_tool_choice(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(text("Hi"))
    await _events(model)
    body = server.requests[0].body
    assert "tools" not in body and "tool_choice" not in body and "temperature" not in body


async def test_local_server_without_a_key_gets_a_placeholder_key(
    server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    server.push(text("Hello from a local model."))
    events = await _events(OpenAIModel("llama3"))
    assert _text(events) == "Hello from a local model."
    assert server.requests[0].headers["authorization"] == f"Bearer {LOCAL_API_KEY}"


def test_no_key_and_no_base_url_is_an_auth_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ProviderError, match="OPENAI_API_KEY") as caught:
        OpenAIModel()
    assert caught.value.kind == "auth"


# --- failures ---------------------------------------------------------------


@pytest.mark.parametrize("header", ["retry-after", "retry-after-ms"])
async def test_rate_limit_is_retried_after_the_servers_delay(
    server: FakeOpenAI, model: OpenAIModel, header: str
) -> None:
    server.push(rate_limited(0.05, header=header), text("Made it."))
    delays: list[float] = []
    events = [
        event
        async for event in stream_with_retry(
            model, HELLO, RetryPolicy(), on_retry=lambda err, delay: delays.append(delay)
        )
    ]
    assert _text(events) == "Made it."
    assert delays == [pytest.approx(0.05)]
    assert len(server.requests) == 2


async def test_overload_is_retried_up_to_the_bound(server: FakeOpenAI, model: OpenAIModel) -> None:
    server.push(overloaded(), overloaded(), overloaded(), text("never reached"))
    policy = RetryPolicy(max_attempts=3, base_delay=0.01)
    with pytest.raises(ProviderError) as caught:
        async for _ in stream_with_retry(model, HELLO, policy):
            pass
    assert (caught.value.kind, caught.value.status_code) == ("overloaded", 503)
    assert len(server.requests) == 3


async def test_bad_key_is_an_auth_error_that_is_not_retried(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(unauthorized(), text("never reached"))
    with pytest.raises(ProviderError) as caught:
        async for _ in stream_with_retry(model, HELLO, RetryPolicy(base_delay=0.01)):
            pass
    assert caught.value.kind == "auth"
    assert API_KEY not in str(caught.value)
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("status", "message", "kind"),
    [
        (400, "This model's maximum context length is 128000 tokens.", "bad_request"),
        (404, "The model `gpt-test` does not exist.", "bad_request"),
        (422, "Unprocessable request.", "bad_request"),
        (403, "Project does not have access.", "auth"),
        (500, "The server had an error.", "server"),
        (502, "Bad gateway.", "server"),
        (500, "Model is overloaded, try again.", "overloaded"),
    ],
)
async def test_http_errors_become_provider_errors_of_their_kind(
    server: FakeOpenAI, model: OpenAIModel, status: int, message: str, kind: str
) -> None:
    server.push(http_error(status, message))
    _, error = await _failure(model)
    assert (error.kind, error.status_code) == (kind, status)


async def test_server_detail_is_shown_without_the_key(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(http_error(400, "Invalid request made with key {api_key}: messages too long"))
    _, error = await _failure(model)
    assert "messages too long" in str(error)
    assert API_KEY not in str(error)


async def test_connection_refused_is_a_connection_error() -> None:
    model = OpenAIModel(api_key=API_KEY, base_url=closed_port_url(), connect_timeout=2)
    _, error = await _failure(model)
    assert error.kind == "connection" and error.retryable


async def test_stream_cut_mid_text_fails_after_the_text_already_shown(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(cut("The answer ", "is"))
    shown, error = await _failure(model)
    assert shown == "The answer is"
    assert error.kind == "connection"


async def test_error_object_mid_stream_is_a_stream_error(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(error_mid_stream("Part", message="Worker crashed"))
    shown, error = await _failure(model)
    assert shown == "Part"
    assert error.kind == "stream"
    assert "Worker crashed" in str(error)


async def test_silent_server_is_a_read_timeout(server: FakeOpenAI) -> None:
    model = OpenAIModel(api_key=API_KEY, base_url=server.base_url, read_timeout=0.2)
    server.push(stall(10, "Thinking"))
    loop = asyncio.get_running_loop()
    started = loop.time()
    shown, error = await _failure(model)
    assert (shown, error.kind) == ("Thinking", "timeout")
    assert loop.time() - started < 3


async def test_cancelling_the_consumer_closes_the_upstream_response(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(text(*[f"token{i} " for i in range(200)], pace=0.02))
    first = asyncio.Event()

    async def consume() -> None:
        async for _ in model.stream(HELLO):
            first.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(first.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(server.wait_for_disconnect, 2)


async def test_closing_the_stream_closes_the_upstream_response(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(text(*[f"token{i} " for i in range(200)], pace=0.02))
    stream = model.stream(HELLO)
    assert await anext(stream) == TextDelta(text="token0 ")
    await stream.aclose()  # type: ignore[attr-defined]
    assert await asyncio.to_thread(server.wait_for_disconnect, 2)


async def test_fake_server_works_as_an_async_context_manager() -> None:
    async with FakeOpenAI([text("async")]) as fake:
        model = OpenAIModel(api_key=API_KEY, base_url=fake.base_url)
        assert _text(await _events(model)) == "async"
        await model.aclose()


async def test_stream_that_ends_before_a_finish_reason_is_a_stream_error(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(Reply((Chunk({"role": "assistant"}), Chunk({"content": "The answer"}))))
    shown, error = await _failure(model)
    assert shown == "The answer"
    assert error.kind == "stream"


async def test_whole_tool_calls_without_index_or_id_are_each_kept(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    # Older Ollama sends every call whole in one delta, with neither index nor id.
    whole = [
        {"type": "function", "function": {"name": "search", "arguments": f'{{"q": "{q}"}}'}}
        for q in ("a", "b")
    ]
    server.push(Reply((Chunk({"role": "assistant", "tool_calls": whole}), Chunk({}, "tool_calls"))))
    calls = [e for e in await _events(model) if isinstance(e, ModelToolCall)]
    assert [(c.name, c.input) for c in calls] == [("search", {"q": "a"}), ("search", {"q": "b"})]
    assert len({c.id for c in calls}) == 2


async def test_tool_input_cut_off_at_max_tokens_says_so(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(tool_calls(tool_call("search", '{"q": "p5', id="c1"), finish_reason="length"))
    with pytest.raises(ModelOutputError, match="max_tokens"):
        await _events(model)


@pytest.mark.parametrize("form", list(leaks(API_KEY)))
async def test_a_key_quoted_in_any_form_by_the_server_never_reaches_the_error(
    server: FakeOpenAI, model: OpenAIModel, form: str
) -> None:
    server.push(http_error(400, leaks(API_KEY)[form]))
    _, error = await _failure(model)

    for n in range(len(API_KEY) - 6):
        assert API_KEY[n : n + 6] not in str(error)


# --- the body, read directly ----------------------------------------------


async def test_data_that_is_not_json_is_a_stream_error_after_the_text(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(Reply((Chunk({"content": "Half"}), Data("{not json"))))
    shown, error = await _failure(model)
    assert shown == "Half"
    assert (error.kind, str(error)) == ("stream", "The model server sent a malformed stream.")


async def test_json_that_is_not_a_chunk_object_is_a_stream_error(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(Reply((Chunk({"content": "Half"}), Data("[1, 2]"))))
    shown, error = await _failure(model)
    assert (shown, error.kind) == ("Half", "stream")


async def test_an_error_object_without_a_message_still_says_the_stream_failed(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(Reply((Chunk({"content": "Part"}), Data('{"error": "boom"}'))))
    shown, error = await _failure(model)
    assert (shown, error.kind) == ("Part", "stream")
    assert str(error) == "The model stream failed: unknown error"


@pytest.mark.parametrize("form", list(leaks(API_KEY)))
async def test_a_key_quoted_in_a_mid_stream_error_never_reaches_the_user(
    server: FakeOpenAI, model: OpenAIModel, form: str
) -> None:
    server.push(error_mid_stream("Part", message=leaks(API_KEY)[form]))
    _, error = await _failure(model)
    assert error.kind == "stream"
    for n in range(len(API_KEY) - 6):
        assert API_KEY[n : n + 6] not in str(error)


async def test_chunks_after_done_are_ignored_and_the_answer_completes(
    server: FakeOpenAI, model: OpenAIModel
) -> None:
    server.push(
        Reply((Chunk({"content": "All"}, finish_reason="stop"), Done(), Chunk({"content": "?"})))
    )
    events = await _events(model)
    assert _text(events) == "All"
    assert _finish(events).stop_reason == "end_turn"


async def test_the_body_is_read_from_aiohttp_directly(
    server: FakeOpenAI, model: OpenAIModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The OpenAI SDK vendors its own copy of the aiohttp transport: without it in
    # `_transport`'s table the body silently went through httpx2's four generators.
    readers: list[str] = []
    real = _transport.body_chunks

    def spy(response: Any) -> AsyncIterator[bytes]:
        chunks = real(response)
        readers.append(chunks.ag_code.co_name)  # type: ignore[attr-defined]
        return chunks

    monkeypatch.setattr(openai_provider, "body_chunks", spy)
    server.push(text("Direct"))
    assert _text(await _events(model)) == "Direct"
    assert readers == ["_aiohttp_chunks"]
