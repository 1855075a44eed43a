"""The OpenAI-compatible provider: OpenAI itself, vLLM, Ollama, llama.cpp server.

It streams chat completions through the official `openai` SDK. Text is passed
on as it arrives; tool calls arrive as fragments keyed by `index` and are
emitted whole, in index order, once the stream has finished. Every failure of
the SDK becomes a `ProviderError` in one place (`_provider_error`).
"""

from __future__ import annotations

import email.utils
import json
import os
import re
import time
import uuid
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field

import openai
from openai.types.chat import (
    ChatCompletionChunk,
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageFunctionToolCallParam,
    ChatCompletionMessageParam,
)
from openai.types.chat.chat_completion_chunk import ChoiceDeltaToolCall

from ._transport import is_connection_failure
from .base import (
    AssistantTurn,
    Model,
    ModelEvent,
    ModelFinish,
    ModelRequest,
    ModelTextDelta,
    ModelToolCall,
    StopReason,
    TokenUsage,
    ToolResultsTurn,
    ToolSpec,
    UserTurn,
)
from .errors import ModelOutputError, ProviderError
from .redact import redact

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
        calls = _ToolCallAssembler()
        finish_reason: str | None = None
        refused = False
        usage = TokenUsage()
        upstream: openai.AsyncStream[ChatCompletionChunk] | None = None
        try:
            upstream = await self._client.chat.completions.create(
                model=self.model,
                messages=_messages(request),
                # `max_tokens`, not `max_completion_tokens`: compatible servers know only it.
                max_tokens=request.max_tokens,
                stream=True,
                stream_options={"include_usage": True},
                tools=tools or openai.omit,
                tool_choice=request.tool_choice if tools else openai.omit,
                temperature=openai.omit if request.temperature is None else request.temperature,
            )
            async for chunk in upstream:
                if chunk.usage is not None:
                    usage = TokenUsage(
                        chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0
                    )
                # Compatible servers sometimes send chunks without `choices`.
                for choice in getattr(chunk, "choices", None) or ():
                    if choice.index != 0:
                        continue
                    delta = choice.delta
                    if delta.content:
                        yield ModelTextDelta(delta.content)
                    if delta.refusal:
                        refused = True
                        yield ModelTextDelta(delta.refusal)
                    for fragment in delta.tool_calls or ():
                        calls.add(fragment)
                    if choice.finish_reason:
                        finish_reason = choice.finish_reason
        except (openai.OpenAIError, json.JSONDecodeError) as e:
            raise _provider_error(e, self._client.api_key) from e
        finally:
            if upstream is not None:
                await upstream.close()

        if finish_reason is None:
            # The body ended cleanly but the reply did not: a proxy or server gave up.
            raise ProviderError("stream", "The model's reply ended before it was finished.")
        for call in calls.complete(cut_off=finish_reason == "length"):
            yield call
        stop: StopReason = "refusal" if refused else _STOP_REASONS.get(finish_reason, "other")
        yield ModelFinish(stop, usage)


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


def _messages(request: ModelRequest) -> list[ChatCompletionMessageParam]:
    out: list[ChatCompletionMessageParam] = []
    if request.system:
        out.append({"role": "system", "content": request.system})
    for message in request.messages:
        if isinstance(message, UserTurn):
            out.append({"role": "user", "content": message.text})
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

    def add(self, fragment: ChoiceDeltaToolCall) -> None:
        # Some servers (older Ollama) omit `index` and send each call whole.
        index = getattr(fragment, "index", None)
        if index is None:
            index = max(self._calls, default=-1) + 1
        call = self._calls.setdefault(index, _PartialCall())
        # id and name come once, in the first fragment; some servers repeat them.
        if fragment.id and call.id is None:
            call.id = fragment.id
        function = fragment.function
        if function is not None:
            if function.name and call.name is None:
                call.name = function.name
            if function.arguments:
                call.arguments.append(function.arguments)

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
            yield ModelToolCall(call.id or f"call_{uuid.uuid4().hex[:24]}", call.name, arguments)


# --- errors -----------------------------------------------------------------


def _provider_error(exc: Exception, api_key: str) -> ProviderError:
    """The one translation of SDK failures; messages are safe to show a user."""
    if isinstance(exc, openai.APITimeoutError) and not is_connection_failure(exc):
        return ProviderError("timeout", "The model server did not answer in time.")
    if isinstance(exc, openai.APIConnectionError):
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
                retry_after=_retry_after(exc.response.headers),
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
    if isinstance(exc, openai.APIError):
        # An `{"error": ...}` object inside a 200 stream (OpenAI, vLLM).
        detail = _detail(exc, api_key)
        return ProviderError("stream", f"The model stream failed: {detail or 'unknown error'}")
    if isinstance(exc, json.JSONDecodeError):
        return ProviderError("stream", "The model server sent a malformed stream.")
    return ProviderError("stream", "The model call failed.")


def _detail(exc: openai.APIError, api_key: str) -> str:
    body = exc.body
    message = body.get("message") if isinstance(body, Mapping) else None
    text = message if isinstance(message, str) else exc.message
    text = re.sub(r"^Error code: \d+ - ", "", text)
    if text.startswith("Error code: "):
        return ""
    text = redact(text, [api_key]).strip()
    return text if len(text) <= _DETAIL_LIMIT else text[: _DETAIL_LIMIT - 1] + "…"


def _retry_after(headers: Mapping[str, str]) -> float | None:
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
