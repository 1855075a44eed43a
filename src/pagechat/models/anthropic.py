"""The Anthropic provider: the Messages API through the official SDK.

The SDK makes the request: headers, retries, the status check and its errors.
The streamed body is read here (`_sse.sse_data`, `_transport.body_chunks`), one
JSON parse per event (`_sse.event_json`), instead of through the SDK's typed
events, which cost more CPU per token than everything else pagechat does with a
delta. We do not use the `messages.stream()` helper either: it keeps a snapshot
of the whole message and re-parses a tool's partial JSON on every fragment
(quadratic in the input's length). Parsing a tool's input once, at
`content_block_stop`, lets us raise `ModelOutputError` ourselves.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Literal, TypeAlias

import httpx2
from anthropic import (
    AnthropicError,
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AsyncAnthropic,
    AsyncStream,
    CredentialsError,
    DefaultAioHttpClient,
    Omit,
    Timeout,
    omit,
)
from anthropic.types import (
    CacheControlEphemeralParam,
    DocumentBlockParam,
    ImageBlockParam,
    MessageParam,
    RawMessageStreamEvent,
    RedactedThinkingBlockParam,
    TextBlockParam,
    ThinkingBlockParam,
    ThinkingConfigEnabledParam,
    ToolChoiceParam,
    ToolParam,
    ToolResultBlockParam,
    ToolUseBlockParam,
)

from ..events import ReasoningDelta, TextDelta
from ._sse import event_json, sse_data
from ._transport import body_chunks, is_connection_failure
from .base import (
    AssistantTurn,
    FilePart,
    Model,
    ModelEvent,
    ModelFinish,
    ModelMessage,
    ModelRequest,
    ModelThinking,
    ModelToolCall,
    StopReason,
    ThinkingPart,
    TokenUsage,
    ToolResultsTurn,
    ToolSpec,
    UserTurn,
)
from .errors import ModelOutputError, ProviderError, ProviderErrorKind
from .files import as_text, base64_of, image_notice
from .redact import redact
from .retry import retry_after_seconds

__all__ = ["AnthropicModel"]

logger = logging.getLogger(__name__)

_Block: TypeAlias = (
    TextBlockParam
    | ImageBlockParam
    | DocumentBlockParam
    | ToolUseBlockParam
    | ToolResultBlockParam
    | ThinkingBlockParam
    | RedactedThinkingBlockParam
)

_STOP_REASONS: dict[str | None, StopReason] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    # The answer was cut short because the context filled up: to the caller that
    # is the same as running out of output tokens.
    "model_context_window_exceeded": "max_tokens",
    "stop_sequence": "stop_sequence",
    "refusal": "refusal",
}

# The errors a call can end with: the SDK's, and the HTTP client's, which reach
# us unwrapped once the response body is being read (a read timeout or a dropped
# connection mid-stream), and an event whose data is not JSON.
_UPSTREAM_ERRORS = (AnthropicError, httpx2.HTTPError, json.JSONDecodeError)


class AnthropicModel(Model):
    """Claude through the Messages API, streamed.

    `api_key` and `base_url` default to `ANTHROPIC_API_KEY` and
    `ANTHROPIC_BASE_URL` (the SDK reads them). The SDK's own retries are off by
    default: `pagechat.models.retry` retries, and only before the first event.
    """

    provider = "anthropic"

    def __init__(
        self,
        model: str = "claude-sonnet-4-6",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 0,
        connect_timeout: float = 10,
        read_timeout: float = 60,
        context_window: int = 200_000,
        client: AsyncAnthropic | None = None,
        prompt_cache: bool = True,
        thinking_budget: int | None = None,
    ) -> None:
        self.name = model
        self.thinking_budget = thinking_budget
        """Extended thinking's budget in tokens (the API's minimum is 1024), or None (off,
        the default). The thinking streams as `ReasoningDelta`s; the answer keeps its own
        `max_tokens` on top of the budget. Each block comes whole too (`ModelThinking`),
        for the loop to send back, unchanged, with the turn's tool calls."""
        self.prompt_cache = prompt_cache
        """Set cache breakpoints (`cache_control`) on the stable part of the system
        prompt and at the end of the history, so a later call reads them from the
        API's prompt cache instead of paying for them again."""
        self.context_window = context_window
        self._owns_client = client is None
        self._client = client
        self._api_key = api_key
        self._base_url = base_url
        self._max_retries = max_retries
        # `read` bounds each wait for the next bytes, so a stalled stream fails
        # after `read_timeout` however long the whole answer takes.
        self._timeout = Timeout(read_timeout, connect=connect_timeout)

    @property
    def client(self) -> AsyncAnthropic:
        """The SDK client, made on first use.

        Made lazily because the SDK resolves credentials when it is constructed
        (environment, then profile files), and a broken profile raises: that
        should surface as a failed model call, not as a failure to start.
        """
        if self._client is None:
            self._client = AsyncAnthropic(
                api_key=self._api_key,
                base_url=self._base_url,
                max_retries=self._max_retries,
                timeout=self._timeout,
                # See _transport.py for why aiohttp.
                http_client=DefaultAioHttpClient(timeout=self._timeout),
            )
        return self._client

    async def aclose(self) -> None:
        """Closes the HTTP connection pool, unless the client was passed in."""
        if self._owns_client and self._client is not None:
            await self._client.close()
            self._client = None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        secrets: list[str] = []
        try:
            client = self.client
            secrets = _secrets(client)
            if self._owns_client and not _has_credentials(client):
                raise ProviderError(
                    "auth", "No Anthropic API key is configured: set ANTHROPIC_API_KEY."
                )
            # A title call is small and never repeated: nothing worth caching.
            cache = self.prompt_cache and request.purpose == "answer"
            thinking = self._thinking(request)
            response: AsyncStream[RawMessageStreamEvent] = await client.messages.create(
                model=self.name,
                max_tokens=request.max_tokens + (thinking["budget_tokens"] if thinking else 0),
                thinking=thinking or omit,
                messages=_to_messages(request.messages, cache=cache, images=self.accepts_images),
                system=_system(request, cache=cache),
                tools=_tools(request.tools),
                tool_choice=_tool_choice(request),
                # This SDK version has no `temperature` parameter; the API still reads the field.
                # With thinking on, the API accepts no temperature but its default.
                extra_body={"temperature": request.temperature}
                if request.temperature is not None and not thinking
                else None,
                stream=True,
            )
            try:
                # The body is read here, not through the SDK's typed events (models/_sse.py).
                async for event in _model_events(sse_data(body_chunks(response.response)), secrets):
                    yield event
            finally:
                # Closing the response closes its connection, so a cancelled or
                # abandoned answer stops upstream generation at once.
                await response.close()
        except _UPSTREAM_ERRORS as err:
            raise _provider_error(err, secrets) from err

    def _thinking(self, request: ModelRequest) -> ThinkingConfigEnabledParam | None:
        # A title is a short call whose reasoning nobody sees: it thinks not.
        if not self.thinking_budget or request.purpose != "answer":
            return None
        if _thinking_lost(request.messages):
            return None
        return {"type": "enabled", "budget_tokens": self.thinking_budget}


def _thinking_lost(messages: Sequence[ModelMessage]) -> bool:
    """The request goes on with an answer whose thinking blocks are gone: a Continue or
    takeover prefill (the API refuses a final assistant message that does not start with
    thinking), or tool results answering a turn stored without them (a takeover rebuilds
    calls from the run log, where no signature is kept). Such a call thinks not: the
    answer goes on, its earlier reasoning stays as shown."""
    last = messages[-1] if messages else None
    if isinstance(last, AssistantTurn):
        return last.partial and not last.thinking
    if isinstance(last, ToolResultsTurn) and len(messages) >= 2:
        before = messages[-2]
        return isinstance(before, AssistantTurn) and not before.thinking
    return False


_BREAKPOINT: CacheControlEphemeralParam = {"type": "ephemeral"}


def _system(request: ModelRequest, *, cache: bool) -> str | list[TextBlockParam] | Omit:
    """The system prompt; with `cache`, its stable prefix is a block of its own ending in a
    cache breakpoint, so the tools and that prefix are read from the cache on later turns
    even when the page context after it changed."""
    system, at = request.system, request.cache_prefix
    if not system:
        return omit
    if not cache or not 0 < at <= len(system) or not system[:at].strip():
        return system
    blocks: list[TextBlockParam] = [
        {"type": "text", "text": system[:at], "cache_control": _BREAKPOINT}
    ]
    if rest := system[at:].strip():
        blocks.append({"type": "text", "text": rest})
    return blocks


def _to_messages(
    messages: Sequence[ModelMessage], *, cache: bool = False, images: bool = True
) -> list[MessageParam]:
    """Neutral turns as Messages API messages, consecutive same-role turns merged.

    Tool results travel in a user message; they are merged with a following
    user turn, and put first, as the API requires. With `cache`, the last user
    message ends in a cache breakpoint: the next call of the turn (after a tool) and
    the next turn read the history up to there from the cache.
    """
    merged: list[tuple[str, list[_Block]]] = []
    for message in messages:
        role, blocks = _blocks(message, images=images)
        if not blocks:
            continue  # the API rejects empty messages and empty text blocks
        if merged and merged[-1][0] == role:
            merged[-1][1].extend(blocks)
        else:
            merged.append((role, blocks))
    result: list[MessageParam] = []
    for role, blocks in merged:
        if role == "user":
            blocks.sort(key=lambda b: b["type"] != "tool_result")  # stable: keeps each kind's order
            result.append({"role": "user", "content": blocks})
        else:
            result.append({"role": "assistant", "content": blocks})
    if cache:
        _mark_history(result)
    return result


def _mark_history(messages: list[MessageParam]) -> None:
    # The last user message, not a Continue prefill after it: the prefill is the part
    # that is about to grow, so the cache would never be read at its end.
    for message in reversed(messages):
        if message["role"] == "user":
            content = message["content"]
            if isinstance(content, list) and content:
                last = dict(content[-1])
                last["cache_control"] = _BREAKPOINT
                content[-1] = last
            return


def _blocks(message: ModelMessage, *, images: bool = True) -> tuple[str, list[_Block]]:
    if isinstance(message, UserTurn):
        # The files first: Anthropic reads a question best after what it is about.
        files = [_file_block(part, images=images) for part in message.files]
        return "user", [*files, *_text(message.text)]
    if isinstance(message, AssistantTurn):
        uses: list[_Block] = [
            {"type": "tool_use", "id": c.id, "name": c.name, "input": dict(c.input)}
            for c in message.tool_calls
        ]
        # A prefill (Continue) may not end with whitespace: the API refuses it.
        text = message.text.rstrip() if message.partial else message.text
        return "assistant", [*(_thinking_block(t) for t in message.thinking), *_text(text), *uses]
    assert isinstance(message, ToolResultsTurn)
    results: list[_Block] = []
    for r in message.results:
        block: ToolResultBlockParam = {
            "type": "tool_result",
            "tool_use_id": r.tool_use_id,
            "is_error": r.is_error,
        }
        if r.content:
            block["content"] = r.content
        results.append(block)
    return "user", results


def _thinking_block(part: ThinkingPart) -> _Block:
    # Sent back exactly as received: the API checks the signature against the text.
    if part.data:
        return {"type": "redacted_thinking", "data": part.data}
    return {"type": "thinking", "thinking": part.thinking, "signature": part.signature}


_IMAGE_TYPES: dict[str, Literal["image/jpeg", "image/png", "image/gif", "image/webp"]] = {
    "image/jpeg": "image/jpeg",
    "image/png": "image/png",
    "image/gif": "image/gif",
    "image/webp": "image/webp",
}


def _file_block(part: FilePart, *, images: bool) -> _Block:
    if part.kind == "image":
        if not images:
            return {"type": "text", "text": image_notice(part)}
        image: ImageBlockParam = {
            "type": "image",
            "source": {
                "type": "base64",
                "media_type": _IMAGE_TYPES[part.media_type],
                "data": base64_of(part.data),
            },
        }
        return image
    if part.kind == "pdf" and part.data:
        document: DocumentBlockParam = {
            "type": "document",
            "source": {
                "type": "base64",
                "media_type": "application/pdf",
                "data": base64_of(part.data),
            },
            "title": part.name,
        }
        if part.note:
            document["context"] = part.note
        return document
    return {"type": "text", "text": as_text(part)}


def _text(text: str) -> list[_Block]:
    return [{"type": "text", "text": text}] if text else []


def _tools(tools: Sequence[ToolSpec]) -> list[ToolParam] | Omit:
    if not tools:
        return omit
    return [
        {"name": t.name, "description": t.description, "input_schema": t.input_schema}
        for t in tools
    ]


def _tool_choice(request: ModelRequest) -> ToolChoiceParam | Omit:
    # The API refuses a tool_choice without tools; "auto" is its default anyway.
    if request.tool_choice == "none" and request.tools:
        return {"type": "none"}
    return omit


async def _model_events(
    data: AsyncIterator[bytes], secrets: Sequence[str]
) -> AsyncIterator[ModelEvent]:
    """The Messages API's stream events, from their JSON, as neutral model events.

    Text deltas, nearly every event of an answer, take the first branch and cost
    one JSON parse; nothing else is built for them.
    """
    input_tokens = output_tokens = cache_read = cache_write = 0
    stop_reason: str | None = None
    stopped = False
    tools: dict[int, tuple[str, str, list[str], dict[str, object]]] = {}
    thinking: dict[int, _Thinking] = {}
    loads = event_json
    for_text = TextDelta
    async for raw in data:
        event = loads(raw)
        kind = event.get("type")
        if kind == "content_block_delta":
            delta = event["delta"]
            if delta.get("type") == "text_delta":
                if text := delta.get("text"):
                    yield for_text(text=text)
            elif delta.get("type") == "input_json_delta" and event.get("index") in tools:
                tools[event["index"]][2].append(delta.get("partial_json") or "")
            elif delta.get("type") == "thinking_delta" and event.get("index") in thinking:
                if piece := delta.get("thinking"):
                    thinking[event["index"]].text.append(piece)
                    yield ReasoningDelta(text=piece)
            elif delta.get("type") == "signature_delta" and event.get("index") in thinking:
                thinking[event["index"]].signature += delta.get("signature") or ""
        elif kind == "message_start":
            usage = event["message"].get("usage") or {}
            input_tokens = _input_tokens(usage)
            output_tokens = usage.get("output_tokens") or 0
            cache_read = usage.get("cache_read_input_tokens") or 0
            cache_write = usage.get("cache_creation_input_tokens") or 0
        elif kind == "content_block_start":
            block = event["content_block"]
            if block.get("type") == "tool_use":
                tools[event["index"]] = (
                    block["id"],
                    block["name"],
                    [],
                    dict(block.get("input") or {}),
                )
            elif block.get("type") == "text" and block.get("text"):
                yield for_text(text=block["text"])
            elif block.get("type") in ("thinking", "redacted_thinking"):
                thinking[event["index"]] = started = _Thinking(block)
                if started.text:
                    yield ReasoningDelta(text=started.text[0])
        elif kind == "content_block_stop":
            if event.get("index") in tools:
                yield _tool_call(*tools.pop(event["index"]))
            elif event.get("index") in thinking:
                yield ModelThinking(part=thinking.pop(event["index"]).part())
        elif kind == "message_delta":
            stop_reason = (event.get("delta") or {}).get("stop_reason")
            usage = event.get("usage") or {}
            output_tokens = usage.get("output_tokens") or output_tokens
            if usage.get("input_tokens") is not None:
                input_tokens = _input_tokens(usage)
                cache_read = usage.get("cache_read_input_tokens") or cache_read
                cache_write = usage.get("cache_creation_input_tokens") or cache_write
        elif kind == "message_stop":
            # Read on to the end of the body rather than stop here, so the
            # connection goes back to the pool instead of being closed.
            stopped = True
        elif kind == "error":
            raise _stream_error(event.get("error") or {}, secrets)
    if not stopped:
        raise ProviderError(
            "stream", "The answer from the Anthropic API ended before it was complete."
        )
    if stop_reason not in _STOP_REASONS:
        logger.info("Anthropic stop_reason %r reported as 'other'", stop_reason)
    yield ModelFinish(
        stop_reason=_STOP_REASONS.get(stop_reason, "other"),
        usage=TokenUsage(input_tokens, output_tokens, cache_read, cache_write),
    )


class _Thinking:
    """A thinking block being streamed: its text so far, and its signature."""

    __slots__ = ("data", "signature", "text")

    def __init__(self, block: Mapping[str, str]) -> None:
        self.text: list[str] = [block["thinking"]] if block.get("thinking") else []
        self.signature: str = block.get("signature") or ""
        self.data: str = block.get("data") or ""

    def part(self) -> ThinkingPart:
        return ThinkingPart(thinking="".join(self.text), signature=self.signature, data=self.data)


def _input_tokens(usage: Mapping[str, int | None]) -> int:
    # The prompt's size is the sum: cached tokens are not counted in `input_tokens`.
    return (
        (usage.get("input_tokens") or 0)
        + (usage.get("cache_creation_input_tokens") or 0)
        + (usage.get("cache_read_input_tokens") or 0)
    )


def _stream_error(error: Mapping[str, object], secrets: Sequence[str]) -> ProviderError:
    """An `error` event inside a stream whose HTTP status was 200."""
    kind: ProviderErrorKind = "overloaded" if error.get("type") == "overloaded_error" else "stream"
    detail = redact(str(error.get("message") or "no details"), secrets)
    return ProviderError(
        kind, f"The Anthropic API failed mid-answer ({error.get('type') or 'error'}): {detail}"
    )


def _tool_call(
    tool_id: str, name: str, fragments: list[str], start_input: dict[str, object]
) -> ModelToolCall:
    raw = "".join(fragments)
    if not raw.strip():
        return ModelToolCall(id=tool_id, name=name, input=dict(start_input))
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as err:
        raise ModelOutputError(
            f"The input the model wrote for tool {name!r} is not valid JSON ({err.msg})."
        ) from err
    if not isinstance(value, dict):
        raise ModelOutputError(f"The input the model wrote for tool {name!r} is not a JSON object.")
    return ModelToolCall(id=tool_id, name=name, input=value)


def _has_credentials(client: AsyncAnthropic) -> bool:
    return bool(client.api_key or client.auth_token or client.credentials)


def _secrets(client: AsyncAnthropic) -> list[str]:
    return [s for s in (client.api_key, client.auth_token) if s]


def _provider_error(err: Exception, secrets: Sequence[str]) -> ProviderError:
    """The one place where the SDK's and the HTTP client's failures become ProviderErrors."""
    kind: ProviderErrorKind
    if isinstance(err, APIStatusError):
        status = err.status_code
        detail = redact(err.api_message or "no details", secrets)
        retry_after = retry_after_seconds(err.response.headers)
        # (An `error` event inside a 200 stream is read by `_stream_error`, not the SDK.)
        if status == 429:
            kind, message = "rate_limit", "The Anthropic API is rate limiting requests"
        elif status == 529 or err.type == "overloaded_error":
            kind, message = "overloaded", "The Anthropic API is overloaded"
        elif status in (401, 403):
            kind, message = "auth", "The Anthropic API refused the credentials"
        elif status == 408:
            kind, message = "timeout", "The Anthropic API timed out"
        elif status >= 500:
            kind, message = "server", "The Anthropic API had an internal error"
        else:
            kind, message = "bad_request", "The Anthropic API rejected the request"
        return ProviderError(
            kind,
            f"{message} (HTTP {status}): {detail}",
            status_code=status,
            retry_after=retry_after,
        )
    if isinstance(err, APITimeoutError | httpx2.TimeoutException) and not is_connection_failure(
        err
    ):
        return ProviderError("timeout", "The Anthropic API did not answer in time.")
    if isinstance(err, APITimeoutError):
        return ProviderError("connection", "Could not connect to the Anthropic API.")
    if isinstance(err, APIConnectionError):
        return ProviderError("connection", "Could not connect to the Anthropic API.")
    if isinstance(err, httpx2.TransportError):
        return ProviderError("connection", "The connection to the Anthropic API broke mid-answer.")
    if isinstance(err, CredentialsError):
        return ProviderError("auth", "The Anthropic credentials could not be loaded.")
    if isinstance(err, json.JSONDecodeError):
        return ProviderError("stream", "The Anthropic API sent an event that is not valid JSON.")
    return ProviderError("stream", f"The Anthropic API call failed ({type(err).__name__}).")
