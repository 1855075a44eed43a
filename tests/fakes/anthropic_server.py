"""A fake Anthropic Messages API that speaks the real streaming wire format.

`FakeAnthropic` runs uvicorn in a background thread on 127.0.0.1 (port 0 by
default), so sync tests, async tests, the load benchmark and the e2e server can
all point an SDK at `fake.base_url`. Each POST /v1/messages takes the next
scripted response from a queue, or asks `responder` when the queue is empty::

    with FakeAnthropic(reply("Hel", "lo", ToolUse("search", {"q": "x"}))) as fake:
        client = AsyncAnthropic(api_key="test", base_url=fake.base_url)

A reply streams exactly what the API sends: `message_start`, then per content
block `content_block_start` / `content_block_delta` (`text_delta`, or
`input_json_delta` with the JSON split into fragments) / `content_block_stop`,
then `message_delta` (stop_reason, usage.output_tokens) and `message_stop`.
`Thinking(...)` streams a thinking block (`thinking_delta`s, then its `signature_delta`)
and `RedactedThinking(...)` a redacted one, as extended thinking does; in strict mode a
request whose assistant message holds a thinking block that is not the one the fake sent
(text or signature changed), or a thinking request whose last assistant tool turn drops
its thinking block, is refused as the API refuses it.
Faults are scripted in the same list: `Ping()`, `Stall(s)`, `ErrorEvent(...)`,
`Cut()`; HTTP errors before the stream with `HttpError` (`rate_limited`,
`overloaded`, `unauthorized`).

Run it standalone (an echoing assistant) for manual or e2e use:
`python -m tests.fakes.anthropic_server --port 8765 --tokens-per-second 50`.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import dataclasses
import hashlib
import itertools
import json
import math
import socket
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, TypeAlias

import uvicorn

from pagechat.chat.titles import TITLE_INSTRUCTIONS

from .prompt_cache import PromptCache, breakpoint_problem

__all__ = [
    "Cut",
    "ErrorEvent",
    "FakeAnthropic",
    "HttpError",
    "Ping",
    "RedactedThinking",
    "Reply",
    "Response",
    "Stall",
    "Thinking",
    "ToolUse",
    "echo_responder",
    "overloaded",
    "rate_limited",
    "reply",
    "unauthorized",
]

_Scope: TypeAlias = MutableMapping[str, Any]
_Message: TypeAlias = MutableMapping[str, Any]
_Receive: TypeAlias = Callable[[], Awaitable[_Message]]
_Send: TypeAlias = Callable[[_Message], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ToolUse:
    """A tool_use block; its input JSON is streamed in `fragments` pieces."""

    name: str
    input: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None
    raw_json: str | None = None
    """Sent instead of `input`'s JSON, e.g. to send JSON that does not parse."""
    fragments: int = 3


@dataclass(frozen=True, slots=True)
class Thinking:
    """A thinking block (extended thinking): its text streamed in `fragments` pieces, then
    its signature (the fake's own, `signature_for(text)`, unless given)."""

    text: str
    fragments: int = 3
    signature: str | None = None


@dataclass(frozen=True, slots=True)
class RedactedThinking:
    """A redacted_thinking block: opaque `data`, sent whole at its start."""

    data: str = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"


def signature_for(thinking: str) -> str:
    """The signature the fake gives a thinking block's text (and checks it against)."""
    digest = hashlib.sha256(b"fake-thinking:" + thinking.encode()).digest()
    return base64.b64encode(digest).decode()


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Stall:
    """Send nothing for this long (to test read timeouts and cancellation)."""

    seconds: float


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    """An `error` event mid-stream; the API ends the stream after one."""

    type: str = "overloaded_error"
    message: str = "Overloaded"


@dataclass(frozen=True, slots=True)
class Cut:
    """End the stream here without `message_stop`.

    By default the connection is dropped mid-body (the client sees an
    incomplete chunked read); `clean=True` ends the HTTP body properly instead.
    """

    clean: bool = False


StreamItem: TypeAlias = (
    str | ToolUse | Thinking | RedactedThinking | Ping | Stall | ErrorEvent | Cut
)
"""A string is one `text_delta`; consecutive strings share one text block."""


@dataclass(frozen=True, slots=True)
class Reply:
    items: tuple[StreamItem, ...]
    stop_reason: str | None = None
    """Defaults to `tool_use` when the reply has a tool_use block, else `end_turn`."""
    input_tokens: int = 25
    output_tokens: int | None = None
    """Defaults to an estimate from the streamed text."""
    headers_delay: float = 0.0
    """Wait this long before sending the response headers."""
    tokens_per_second: float | None = None
    """Pace of deltas; defaults to the server's."""
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    """Set by the server's `PromptCache` for a request with cache breakpoints."""


@dataclass(frozen=True, slots=True)
class HttpError:
    """An HTTP error response before any stream, with the API's JSON error body."""

    status: int
    type: str
    message: str
    headers: Mapping[str, str] = field(default_factory=dict)


Response: TypeAlias = Reply | HttpError
Responder: TypeAlias = Callable[[dict[str, Any]], Response]


def reply(
    *items: StreamItem,
    stop_reason: str | None = None,
    input_tokens: int = 25,
    output_tokens: int | None = None,
    headers_delay: float = 0.0,
    tokens_per_second: float | None = None,
) -> Reply:
    return Reply(items, stop_reason, input_tokens, output_tokens, headers_delay, tokens_per_second)


def rate_limited(retry_after: float | str = 1) -> HttpError:
    """429; `retry_after` is seconds or an HTTP date, as the `retry-after` header allows."""
    return HttpError(
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit",
        {"retry-after": str(retry_after)},
    )


def overloaded() -> HttpError:
    return HttpError(529, "overloaded_error", "Overloaded")


def unauthorized(message: str = "invalid x-api-key") -> HttpError:
    return HttpError(401, "authentication_error", message)


def echo_responder(body: dict[str, Any]) -> Response:
    """Answers every request with the last user text, word by word."""
    text = "(nothing)"
    for message in reversed(body.get("messages", [])):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            text = content
            break
        texts = [b.get("text", "") for b in content if b.get("type") == "text"]
        if texts:
            text = " ".join(texts)
            break
    return reply(*_words(f"You said: {text}"))


def _words(text: str) -> list[str]:
    # Roughly one token each: a word with its following space.
    parts = text.split(" ")
    return [p + " " for p in parts[:-1]] + [parts[-1]]


def _estimate_tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


def _split(text: str, pieces: int) -> list[str]:
    size = max(1, math.ceil(len(text) / max(1, pieces)))
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _sse(event: str, data: Mapping[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _error_body(error_type: str, message: str, request_id: str) -> dict[str, Any]:
    return {
        "type": "error",
        "error": {"type": error_type, "message": message},
        "request_id": request_id,
    }


class FakeAnthropic:
    """A fake Messages API on a background thread. Use as a (sync or async) context manager."""

    def __init__(
        self,
        *responses: Response,
        responder: Responder | None = None,
        tokens_per_second: float | None = None,
        strict: bool = True,
        api_key: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        """`strict` answers 400, as the API does, to requests it would reject.

        With `api_key`, a request without that key (as `x-api-key` or a bearer
        token) is answered 401 and takes no scripted response.
        """
        self._queue: deque[Response] = deque(responses)
        self._responder = responder
        self._tokens_per_second = tokens_per_second
        self._strict = strict
        self._api_key = api_key
        self._host = host
        self._port = port
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._disconnected = threading.Event()
        self._idle = threading.Condition(self._lock)
        self._active = 0  # responses being streamed
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._base_url: str | None = None
        self.requests: list[dict[str, Any]] = []
        self.prompt_cache = PromptCache()
        """What requests with `cache_control` breakpoints wrote; later ones read it."""
        self.title_requests: list[dict[str, Any]] = []
        """Conversation-title calls (chat/titles.py): answered with `title`, kept apart
        from `requests` and the script, as they come after a first answer."""
        self.title = "A fake title"
        """The JSON bodies received, in order."""
        self.request_headers: list[dict[str, str]] = []
        self.disconnects = 0
        """Responses the client abandoned before they were complete."""

    # -- scripting -------------------------------------------------------------

    def reset(self, timeout: float = 5.0) -> None:
        """Forgets scripts, requests and disconnects, once no response is streaming.

        Lets one server serve many tests: waiting for the streams in flight keeps
        a previous test's late disconnect out of the next one.
        """
        with self._idle:
            self._idle.wait_for(lambda: self._active == 0, timeout)
            self._queue.clear()
            self.requests.clear()
            self.prompt_cache = PromptCache()
            self.request_headers.clear()
            self.disconnects = 0
            self._disconnected.clear()

    def add(self, *responses: Response) -> None:
        with self._lock:
            self._queue.extend(responses)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def wait_for_disconnect(self, timeout: float) -> bool:
        """Blocks until a client has dropped a response mid-way; False on timeout."""
        return self._disconnected.wait(timeout)

    async def disconnected(self, within: float) -> bool:
        """Like `wait_for_disconnect`, without blocking the event loop."""
        return await asyncio.to_thread(self._disconnected.wait, within)

    # -- lifecycle -------------------------------------------------------------

    @property
    def base_url(self) -> str:
        if self._base_url is None:
            raise RuntimeError("FakeAnthropic is not started")
        return self._base_url

    def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self._host, self._port))
        self._socket = sock
        host, port = sock.getsockname()[:2]
        self._base_url = f"http://{host}:{port}"
        config = uvicorn.Config(
            self._app,
            interface="asgi3",
            lifespan="off",
            access_log=False,
            # Leave the host process's logging (a test run, the app server) alone.
            log_config=None,
            log_level=None,
            timeout_graceful_shutdown=1,
        )
        server = uvicorn.Server(config)
        self._server = server
        self._thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name="fake-anthropic", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("FakeAnthropic did not start")
            time.sleep(0.005)

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._socket is not None:
            self._socket.close()
        self._server = self._thread = None

    def __enter__(self) -> FakeAnthropic:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> FakeAnthropic:
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)

    # -- HTTP ------------------------------------------------------------------

    async def _app(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":
            return
        n = next(self._ids)
        request_id = f"req_fake_{n:04d}"
        if (scope["method"], scope["path"]) != ("POST", "/v1/messages"):
            await _send_json(send, 404, _error_body("not_found_error", "Not found", request_id))
            return
        raw = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            raw += message.get("body", b"")
            if not message.get("more_body"):
                break
        try:
            body = json.loads(raw)
        except ValueError:
            error = _error_body(
                "invalid_request_error", "The request body is not valid JSON", request_id
            )
            await _send_json(send, 400, error)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if body.get("system") == TITLE_INSTRUCTIONS and body.get("stream"):
            self.title_requests.append(body)
            await self._stream(reply(self.title), body, request_id, n, receive, send)
            return
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            if self._api_key is not None and self._api_key not in (
                headers.get("x-api-key"),
                headers.get("authorization", "").removeprefix("Bearer "),
            ):
                response: Response | None = unauthorized()
            else:
                response = self._queue.popleft() if self._queue else None
        if response is None:
            response = (
                self._responder(body)
                if self._responder is not None
                else HttpError(500, "api_error", "FakeAnthropic has no scripted response left")
            )
        problem = (_validate(body) or breakpoint_problem(body)) if self._strict else None
        counts = (
            self.prompt_cache.usage(body, response.input_tokens)
            if isinstance(response, Reply) and problem is None
            else None
        )
        if isinstance(response, Reply) and counts is not None:
            response = dataclasses.replace(
                response,
                input_tokens=counts["input_tokens"],
                cache_read_input_tokens=counts["cache_read_input_tokens"],
                cache_creation_input_tokens=counts["cache_creation_input_tokens"],
            )
        if isinstance(response, HttpError):
            error = _error_body(response.type, response.message, request_id)
            await _send_json(send, response.status, error, response.headers)
        elif problem is not None:
            await _send_json(send, 400, _error_body("invalid_request_error", problem, request_id))
        elif body.get("stream"):
            await self._stream(response, body, request_id, n, receive, send)
        else:
            await _send_json(send, 200, _message(response, body, n, _stop_reason(response)))

    async def _stream(
        self,
        response: Reply,
        body: dict[str, Any],
        request_id: str,
        n: int,
        receive: _Receive,
        send: _Send,
    ) -> None:
        finished = False

        async def write() -> None:
            nonlocal finished
            await self._write_stream(response, body, request_id, n, send)
            finished = True

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        with self._lock:
            self._active += 1
        writer = asyncio.create_task(write())
        watcher = asyncio.create_task(watch())
        try:
            await asyncio.wait({writer, watcher}, return_when=asyncio.FIRST_COMPLETED)
            # uvicorn also reports a disconnect once a response is complete; only
            # an unfinished one counts as abandoned.
            if watcher.done() and not finished:
                with self._lock:
                    self.disconnects += 1
                self._disconnected.set()
        finally:
            writer.cancel()
            watcher.cancel()
            await asyncio.gather(writer, watcher, return_exceptions=True)
            with self._idle:
                self._active -= 1
                self._idle.notify_all()
        # After a `Cut()` the body is unfinished: returning now makes uvicorn drop
        # the connection mid-body.

    async def _write_stream(
        self, response: Reply, body: dict[str, Any], request_id: str, n: int, send: _Send
    ) -> None:
        """Streams the reply; after a `Cut()` it returns with the body unfinished."""
        pace = response.tokens_per_second or self._tokens_per_second
        gap = 1 / pace if pace else 0.0

        async def emit(event: str, data: Mapping[str, Any]) -> None:
            await send({"type": "http.response.body", "body": _sse(event, data), "more_body": True})

        async def end() -> None:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        if response.headers_delay:
            await asyncio.sleep(response.headers_delay)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-cache"),
                    (b"request-id", request_id.encode()),
                ],
            }
        )
        start = _message(response, body, n, None)
        start["content"] = []
        start["usage"]["output_tokens"] = 1
        await emit("message_start", {"type": "message_start", "message": start})

        index = -1
        open_kind: str | None = None  # the type of the content block being streamed
        out_chars = 0

        async def open_block(block: dict[str, Any]) -> None:
            nonlocal index, open_kind
            await close_block()
            index += 1
            open_kind = block["type"]
            await emit(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": block},
            )

        async def close_block() -> None:
            nonlocal open_kind
            if open_kind is not None:
                await emit("content_block_stop", {"type": "content_block_stop", "index": index})
            open_kind = None

        async def delta(payload: dict[str, Any]) -> None:
            await emit(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": payload},
            )

        for item in response.items:
            if isinstance(item, str):
                if open_kind != "text":
                    await open_block({"type": "text", "text": ""})
                if gap:
                    await asyncio.sleep(gap)
                out_chars += len(item)
                await delta({"type": "text_delta", "text": item})
            elif isinstance(item, ToolUse):
                tool_id = item.id or f"toolu_fake_{n:04d}_{index + 1}"
                await open_block(
                    {"type": "tool_use", "id": tool_id, "name": item.name, "input": {}}
                )
                raw = item.raw_json if item.raw_json is not None else json.dumps(dict(item.input))
                out_chars += len(raw)
                # The API opens every tool input with an empty fragment.
                for fragment in ["", *_split(raw, item.fragments)]:
                    if gap and fragment:
                        await asyncio.sleep(gap)
                    await delta({"type": "input_json_delta", "partial_json": fragment})
                await close_block()
            elif isinstance(item, Thinking):
                await open_block({"type": "thinking", "thinking": "", "signature": ""})
                out_chars += len(item.text)
                for fragment in _split(item.text, item.fragments):
                    if gap:
                        await asyncio.sleep(gap)
                    await delta({"type": "thinking_delta", "thinking": fragment})
                signature = item.signature or signature_for(item.text)
                await delta({"type": "signature_delta", "signature": signature})
                await close_block()
            elif isinstance(item, RedactedThinking):
                await open_block({"type": "redacted_thinking", "data": item.data})
                await close_block()
            elif isinstance(item, Ping):
                await emit("ping", {"type": "ping"})
            elif isinstance(item, Stall):
                await asyncio.sleep(item.seconds)
            elif isinstance(item, ErrorEvent):
                error = {"type": item.type, "message": item.message}
                await emit("error", {"type": "error", "error": error})
                await end()
                return
            else:
                if item.clean:
                    await end()
                return

        await close_block()
        output_tokens = response.output_tokens or _estimate_tokens("x" * out_chars)
        await emit(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": _stop_reason(response), "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            },
        )
        await emit("message_stop", {"type": "message_stop"})
        await end()


def _stop_reason(response: Reply) -> str:
    if response.stop_reason is not None:
        return response.stop_reason
    return "tool_use" if any(isinstance(i, ToolUse) for i in response.items) else "end_turn"


def _message(
    response: Reply, body: dict[str, Any], n: int, stop_reason: str | None
) -> dict[str, Any]:
    """The `message` object (of `message_start`, or a whole non-streamed reply)."""
    content: list[dict[str, Any]] = []
    for item in response.items:
        if isinstance(item, str):
            if content and content[-1]["type"] == "text":
                content[-1]["text"] += item
            else:
                content.append({"type": "text", "text": item})
        elif isinstance(item, Thinking):
            signature = item.signature or signature_for(item.text)
            content.append({"type": "thinking", "thinking": item.text, "signature": signature})
        elif isinstance(item, RedactedThinking):
            content.append({"type": "redacted_thinking", "data": item.data})
        elif isinstance(item, ToolUse):
            content.append(
                {
                    "type": "tool_use",
                    "id": item.id or f"toolu_fake_{n:04d}_{len(content)}",
                    "name": item.name,
                    "input": dict(item.input),
                }
            )
    text = "".join(i for i in response.items if isinstance(i, str))
    return {
        "id": f"msg_fake_{n:04d}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-fake"),
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": response.input_tokens,
            "cache_creation_input_tokens": response.cache_creation_input_tokens,
            "cache_read_input_tokens": response.cache_read_input_tokens,
            "output_tokens": response.output_tokens or _estimate_tokens(text),
        },
    }


def _validate(body: dict[str, Any]) -> str | None:
    """The API's checks that a client's message conversion can get wrong; None if fine."""
    for key in ("model", "max_tokens", "messages"):
        if key not in body:
            return f"{key}: Field required"
    messages = body["messages"]
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    if "tool_choice" in body and not body.get("tools"):
        return "tool_choice may only be specified while providing tools"
    for tool in body.get("tools", []):
        schema = tool.get("input_schema")
        if not tool.get("name") or not isinstance(schema, dict) or schema.get("type") != "object":
            return "tools: each tool needs a name and an input_schema of type object"
    if problem := _thinking_problem(body):
        return problem
    previous_tool_uses: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ("user", "assistant"):
            return f"messages.{i}.role: Input should be 'user' or 'assistant'"
        if i and messages[i - 1].get("role") == role:
            return f"messages.{i}: roles must alternate between 'user' and 'assistant'"
        content = message.get("content")
        blocks: list[dict[str, Any]] = (
            [{"type": "text", "text": content}] if isinstance(content, str) else content
        )
        if not blocks:
            return f"messages.{i}: all messages must have non-empty content"
        results = [b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"]
        if any(b.get("type") == "tool_result" for b in blocks[len(results) :]):
            return f"messages.{i}: tool_result blocks must come first in the content"
        if role == "assistant" and results:
            return f"messages.{i}: tool_result blocks are only allowed in user messages"
        unexpected = [r for r in results if r not in previous_tool_uses]
        if unexpected:
            return (
                f"messages.{i}.content: unexpected `tool_use_id` found in `tool_result` blocks: "
                f"{unexpected[0]}. Each `tool_result` block must have a corresponding `tool_use` "
                "block in the previous message."
            )
        if previous_tool_uses - set(results):
            return (
                f"messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately "
                f"after: {sorted(previous_tool_uses - set(results))[0]}"
            )
        for block in blocks:
            if block.get("type") == "text" and not block.get("text"):
                return f"messages.{i}: text content blocks must be non-empty"
        uses = {b["id"] for b in blocks if b.get("type") == "tool_use"}
        previous_tool_uses = uses if role == "assistant" else set()
    return None


def _thinking_problem(body: dict[str, Any]) -> str | None:
    """Extended thinking's rules: the budget, no temperature, and thinking blocks sent back
    unchanged (their signatures), first in the assistant turn a tool result answers."""
    thinking = body.get("thinking")
    if thinking is not None and thinking.get("type") == "enabled":
        budget = thinking.get("budget_tokens")
        if not isinstance(budget, int) or budget < 1024:
            return "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"
        if budget >= body.get("max_tokens", 0):
            return "`max_tokens` must be greater than `thinking.budget_tokens`"
        if body.get("temperature") not in (None, 1):
            return "`temperature` may only be set to 1 when thinking is enabled"
    messages = body.get("messages") or []
    for i, message in enumerate(messages):
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        for block in content:
            if block.get("type") == "thinking" and block.get("signature") != signature_for(
                block.get("thinking", "")
            ):
                return f"messages.{i}.content: Invalid `signature` in `thinking` block"
            if block.get("type") == "redacted_thinking" and not block.get("data"):
                return f"messages.{i}.content: Invalid `data` in `redacted_thinking` block"
    if thinking is None or thinking.get("type") != "enabled":
        return None
    final = messages[-1] if messages else {}
    if final.get("role") == "assistant":
        blocks = final.get("content") if isinstance(final.get("content"), list) else []
        first = blocks[0].get("type") if blocks else "text"
        if first not in ("thinking", "redacted_thinking"):
            return (
                f"messages.{len(messages) - 1}.content.0.type: Expected `thinking` or "
                f"`redacted_thinking`, but found `{first}`. When `thinking` is enabled, a "
                "final `assistant` message must start with a thinking block."
            )
    # The assistant turn the last user message's tool results answer must start with its
    # thinking: the API cannot check the model's reasoning across a tool call otherwise.
    for i in range(len(messages) - 1, 0, -1):
        if messages[i].get("role") != "assistant":
            continue
        content = messages[i].get("content")
        blocks = content if isinstance(content, list) else []
        if any(b.get("type") == "tool_use" for b in blocks) and i == len(messages) - 2:
            first = blocks[0].get("type")
            if first not in ("thinking", "redacted_thinking"):
                return (
                    f"messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, "
                    f"but found `{first}`. When `thinking` is enabled, a final `assistant` "
                    "message must start with a thinking block."
                )
        break
    return None


async def _send_json(
    send: _Send, status: int, payload: Mapping[str, Any], headers: Mapping[str, str] | None = None
) -> None:
    data = json.dumps(payload).encode()
    raw_headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
    ]
    raw_headers += [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    request_id = payload.get("request_id")
    if isinstance(request_id, str):
        raw_headers.append((b"request-id", request_id.encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": data, "more_body": False})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A fake Anthropic Messages API that echoes.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--tokens-per-second", type=float, default=None)
    args = parser.parse_args(argv)
    fake = FakeAnthropic(
        responder=echo_responder,
        tokens_per_second=args.tokens_per_second,
        host=args.host,
        port=args.port,
    )
    with fake:
        print(f"fake Anthropic API on {fake.base_url} (ANTHROPIC_BASE_URL)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
