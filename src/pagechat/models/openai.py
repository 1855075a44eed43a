"""The OpenAI-compatible provider: OpenAI itself, vLLM, Ollama, llama.cpp server.

The official `openai` SDK makes the request (its status errors and retries
included); the streamed body is read here, one JSON parse per chunk, as the
Anthropic provider does (models/_sse.py): the SDK's typed chunks cost more CPU
per token than everything else pagechat does with a delta. Text is passed on
as it arrives; tool calls arrive as fragments keyed by `index` and are emitted
whole, in index order, once the stream has finished. Every failure becomes a
`ProviderError` in one place (`_provider_error`).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx2
import openai
from openai.types.chat import (
    ChatCompletionChunk,
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageFunctionToolCallParam,
    ChatCompletionMessageParam,
)

from ..events import ReasoningDelta, TextDelta
from ._sse import event_json, sse_data
from ._transport import body_chunks, is_connection_failure
from .base import (
    AssistantTurn,
    Model,
    ModelEvent,
    ModelFinish,
    ModelRequest,
    ModelToolCall,
    StopReason,
    TokenUsage,
    ToolResultsTurn,
    ToolSpec,
    UserTurn,
)
from .errors import ModelOutputError, ProviderError
from .files import as_text, base64_of, image_notice
from .redact import redact
from .retry import retry_after_seconds

__all__ = ["LOCAL_API_KEY", "OpenAIModel"]

LOCAL_API_KEY = "not-needed"
"""Sent when a base URL is set but no key: local servers ignore it, the SDK demands one."""

ERROR_RESULT_PREFIX = "Error: "

_STOP_REASONS: dict[str, StopReason] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}

_DETAIL_LIMIT = 300


class OpenAIModel(Model):
    """A chat model behind the OpenAI chat-completions API (or a compatible server).

    Retries are left to `pagechat.models.retry` (hence `max_retries=0`): it
    knows whether text already reached the user. `read_timeout` bounds the
    silence between two pieces of the stream, not the whole reply.
    """

    provider = "openai"
    image_max_edge = 2048

    def __init__(
        self,
        model: str = "gpt-4o-mini",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 0,
        connect_timeout: float = 10,
        read_timeout: float = 60,
        context_window: int = 128_000,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        self.model = model
        self.name = model
        self.context_window = context_window
        self._owns_client = client is None
        if client is None:
            base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
            api_key = api_key or os.environ.get("OPENAI_API_KEY") or None
            if api_key is None:
                if base_url is None:
                    raise ProviderError(
                        "auth", "No OpenAI API key: set OPENAI_API_KEY (or OPENAI_BASE_URL)."
                    )
                api_key = LOCAL_API_KEY
            timeout = openai.Timeout(read_timeout, connect=connect_timeout)
            client = openai.AsyncOpenAI(
                api_key=api_key,
                base_url=base_url,
                max_retries=max_retries,
                timeout=timeout,
                # See _transport.py for why aiohttp.
                http_client=openai.DefaultAioHttpClient(timeout=timeout),
            )
        self._client = client

    async def aclose(self) -> None:
        """Close the HTTP connections of a client this model created."""
        if self._owns_client:
            await self._client.close()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        tools = [_tool_param(spec) for spec in request.tools]
        upstream: openai.AsyncStream[ChatCompletionChunk] | None = None
        try:
            upstream = await self._client.chat.completions.create(
                model=self.model,
                messages=_messages(request, images=self.accepts_images),
                # `max_tokens`, not `max_completion_tokens`: compatible servers know only it.
                max_tokens=request.max_tokens,
                stream=True,
                stream_options={"include_usage": True},
                tools=tools or openai.omit,
                tool_choice=request.tool_choice if tools else openai.omit,
                temperature=openai.omit if request.temperature is None else request.temperature,
            )
            # The body is read here, not through the SDK's typed chunks.
            body = sse_data(body_chunks(upstream.response))
            async for event in _model_events(body, self._client.api_key):
                yield event
        except _UPSTREAM_ERRORS as e:
            raise _provider_error(e, self._client.api_key) from e
        finally:
            if upstream is not None:
                # Closing the response closes its connection, so a cancelled or
                # abandoned answer stops upstream generation at once.
                await upstream.close()


# What can fail: the SDK (the request, its status), httpx2 errors that reach us once
# the body is being read (a read timeout, a dropped connection), data that is not JSON.
_UPSTREAM_ERRORS = (openai.OpenAIError, httpx2.HTTPError, json.JSONDecodeError)


async def _model_events(data: AsyncIterator[bytes], api_key: str) -> AsyncIterator[ModelEvent]:
    """Chat-completion chunks, from their JSON, as neutral model events.

    A text delta, nearly every chunk of an answer, costs one JSON parse and a
    few lookups; nothing else is built for it.
    """
    calls = _ToolCallAssembler()
    finish_reason: str | None = None
    refused = False
    usage = TokenUsage()
    done = False
    loads = event_json
    for_text = TextDelta
    async for raw in data:
        if done or raw.startswith(b"[DONE]"):
            # Read on to the end of the body rather than stop here, so the
            # connection goes back to the pool instead of being closed.
            done = True
            continue
        chunk = loads(raw)
        if not isinstance(chunk, dict):
            raise ProviderError("stream", "The model server sent a malformed stream.")
        if error := chunk.get("error"):
            # An `{"error": ...}` object inside a 200 stream (OpenAI, vLLM).
            raise _stream_error(error, api_key)
        # Compatible servers sometimes send chunks without `choices`.
        for choice in chunk.get("choices") or ():
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            if text := delta.get("content"):
                yield for_text(text=text)
            elif reasoning := delta.get("reasoning_content") or delta.get("reasoning"):
                # llama.cpp, vLLM and DeepSeek stream the reasoning as `reasoning_content`
                # (newer vLLM as `reasoning`), never in a chunk that carries text.
                yield ReasoningDelta(text=reasoning)
            if refusal := delta.get("refusal"):
                refused = True
                yield for_text(text=refusal)
            for fragment in delta.get("tool_calls") or ():
                calls.add(fragment)
            if reason := choice.get("finish_reason"):
                finish_reason = reason
        if counts := chunk.get("usage"):
            # OpenAI caches long prompts by itself and says how much it read; it does
            # not charge for writing, so there is no write count.
            details = counts.get("prompt_tokens_details") or {}
            usage = TokenUsage(
                counts.get("prompt_tokens") or 0,
                counts.get("completion_tokens") or 0,
                cache_read_tokens=details.get("cached_tokens") or 0,
            )
    if finish_reason is None:
        # The body ended cleanly but the reply did not: a proxy or server gave up.
        raise ProviderError("stream", "The model's reply ended before it was finished.")
    for call in calls.complete(cut_off=finish_reason == "length"):
        yield call
    stop: StopReason = "refusal" if refused else _STOP_REASONS.get(finish_reason, "other")
    yield ModelFinish(stop_reason=stop, usage=usage)


# --- request --------------------------------------------------------------


def _tool_param(spec: ToolSpec) -> ChatCompletionFunctionToolParam:
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.input_schema,
        },
    }


CONTINUE_PROMPT = (
    "Your previous answer stopped before its end. Continue it exactly where it stopped, "
    "without repeating anything or commenting on the interruption."
)


def _user_content(turn: UserTurn, *, images: bool) -> str | list[Any]:
    """The user's text alone, or content parts with their files: an image as a data URL
    (a notice without `images`), a PDF as its extracted text, a text file as its text."""
    if not turn.files:
        return turn.text
    parts: list[Any] = []
    for part in turn.files:
        if part.kind == "image" and images:
            url = f"data:{part.media_type};base64,{base64_of(part.data)}"
            parts.append({"type": "image_url", "image_url": {"url": url}})
        elif part.kind == "image":
            parts.append({"type": "text", "text": image_notice(part)})
        else:
            parts.append({"type": "text", "text": as_text(part)})
    if turn.text:
        parts.append({"type": "text", "text": turn.text})
    return parts


def _messages(request: ModelRequest, *, images: bool = True) -> list[ChatCompletionMessageParam]:
    out: list[ChatCompletionMessageParam] = []
    if request.system:
        out.append({"role": "system", "content": request.system})
    for message in request.messages:
        if isinstance(message, UserTurn):
            out.append({"role": "user", "content": _user_content(message, images=images)})
        elif isinstance(message, AssistantTurn):
            if message.tool_calls:
                calls: list[ChatCompletionMessageFunctionToolCallParam] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": json.dumps(call.input)},
                    }
                    for call in message.tool_calls
                ]
                out.append(
                    {"role": "assistant", "content": message.text or None, "tool_calls": calls}
                )
            else:
                out.append({"role": "assistant", "content": message.text})
            if message.partial and message is request.messages[-1]:
                # No prefill in the Chat Completions API: ask for the rest instead.
                out.append({"role": "user", "content": CONTINUE_PROMPT})
        elif isinstance(message, ToolResultsTurn):
            for result in message.results:
                content = (
                    ERROR_RESULT_PREFIX + result.content if result.is_error else result.content
                )
                out.append({"role": "tool", "tool_call_id": result.tool_use_id, "content": content})
    return out


# --- tool calls -------------------------------------------------------------


@dataclass(slots=True)
class _PartialCall:
    id: str | None = None
    name: str | None = None
    arguments: list[str] = field(default_factory=list)


class _ToolCallAssembler:
    """Joins tool-call fragments; several calls' fragments may interleave."""

    def __init__(self) -> None:
        self._calls: dict[int, _PartialCall] = {}

    def add(self, fragment: Mapping[str, Any]) -> None:
        """One `delta.tool_calls` item as the server sent it (JSON)."""
        # Some servers (older Ollama) omit `index` and send each call whole.
        index = fragment.get("index")
        if not isinstance(index, int):
            index = max(self._calls, default=-1) + 1
        call = self._calls.setdefault(index, _PartialCall())
        # id and name come once, in the first fragment; some servers repeat them.
        if (call_id := fragment.get("id")) and call.id is None:
            call.id = str(call_id)
        function = fragment.get("function")
        if isinstance(function, Mapping):
            if (name := function.get("name")) and call.name is None:
                call.name = str(name)
            if arguments := function.get("arguments"):
                call.arguments.append(str(arguments))

    def complete(self, *, cut_off: bool = False) -> Iterable[ModelToolCall]:
        """The calls in index order; `cut_off` (max_tokens reached) explains broken JSON."""
        why = " (the reply hit the max_tokens limit)" if cut_off else ""
        for index in sorted(self._calls):
            call = self._calls[index]
            if not call.name:
                raise ModelOutputError(f"The model started tool call #{index} without naming it.")
            text = "".join(call.arguments).strip()
            try:
                arguments = json.loads(text) if text else {}
            except json.JSONDecodeError as e:
                raise ModelOutputError(
                    f"The model's input for tool {call.name!r} is not valid JSON{why}."
                ) from e
            if not isinstance(arguments, dict):
                raise ModelOutputError(
                    f"The model's input for tool {call.name!r} is not an object."
                )
            yield ModelToolCall(
                id=call.id or f"call_{uuid.uuid4().hex[:24]}", name=call.name, input=arguments
            )


# --- errors -----------------------------------------------------------------


def _provider_error(exc: Exception, api_key: str) -> ProviderError:
    """The one translation of SDK failures; messages are safe to show a user."""
    # Read from the body directly, a read timeout arrives as httpx2's own error.
    timeout = openai.APITimeoutError | httpx2.TimeoutException
    if isinstance(exc, timeout) and not is_connection_failure(exc):
        return ProviderError("timeout", "The model server did not answer in time.")
    if isinstance(exc, openai.APIConnectionError | httpx2.HTTPError):
        return ProviderError(
            "connection", "Could not reach the model server, or the connection dropped."
        )
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        detail = _detail(exc, api_key)
        suffix = f": {detail}" if detail else "."
        if status == 429:
            return ProviderError(
                "rate_limit",
                f"The model server is rate limiting requests (HTTP 429){suffix}",
                status_code=status,
                retry_after=retry_after_seconds(exc.response.headers),
            )
        if status in (401, 403):
            # No detail: OpenAI's 401 message quotes part of the key.
            return ProviderError(
                "auth",
                f"The model server refused the credentials (HTTP {status}); check OPENAI_API_KEY.",
                status_code=status,
            )
        if status in (503, 529) or (
            status >= 500 and "overloaded" in f"{detail} {exc.type}".lower()
        ):
            return ProviderError(
                "overloaded",
                f"The model server is overloaded (HTTP {status}){suffix}",
                status_code=status,
            )
        if status >= 500:
            return ProviderError(
                "server", f"The model server failed (HTTP {status}){suffix}", status_code=status
            )
        return ProviderError(
            "bad_request",
            f"The model server rejected the request (HTTP {status}){suffix}",
            status_code=status,
        )
    if isinstance(exc, json.JSONDecodeError):
        return ProviderError("stream", "The model server sent a malformed stream.")
    return ProviderError("stream", "The model call failed.")


def _stream_error(error: object, api_key: str) -> ProviderError:
    """An `error` object inside a stream whose HTTP status was 200."""
    message = error.get("message") if isinstance(error, Mapping) else None
    text = message if isinstance(message, str) and message else "unknown error"
    return ProviderError("stream", f"The model stream failed: {_clean(text, api_key)}")


def _detail(exc: openai.APIError, api_key: str) -> str:
    body = exc.body
    message = body.get("message") if isinstance(body, Mapping) else None
    text = message if isinstance(message, str) else exc.message
    text = re.sub(r"^Error code: \d+ - ", "", text)
    if text.startswith("Error code: "):
        return ""
    return _clean(text, api_key)


def _clean(text: str, api_key: str) -> str:
    """Safe to show a user: no key in any form, and not too long."""
    text = redact(text, [api_key]).strip()
    return text if len(text) <= _DETAIL_LIMIT else text[: _DETAIL_LIMIT - 1] + "…"
