"""A fake OpenAI-compatible server that speaks the real streaming wire format.

`POST /v1/chat/completions` with `"stream": true` is answered the way OpenAI,
vLLM and Ollama answer it: `data: {chat.completion.chunk}` events (the first
with the role, then content deltas or tool-call fragments, then one with the
`finish_reason`), a usage chunk with empty `choices` when the request asked for
`stream_options.include_usage`, and `data: [DONE]`. Each request takes the next
scripted `Reply` from a queue; failures are replies too::

    with FakeOpenAI([rate_limited(0.1), text("Hel", "lo")]) as server:
        client = AsyncOpenAI(base_url=server.base_url, api_key="sk-test")

It is a raw asyncio server on 127.0.0.1 in a thread of its own, so it serves
sync and async tests alike, and it can do what a tidy framework would not: drop
a connection mid-body, stall, and notice when the client hangs up.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from types import TracebackType
from typing import Any, TypeAlias

from pagechat.chat.titles import TITLE_INSTRUCTIONS

__all__ = [
    "Chunk",
    "Cut",
    "Data",
    "Done",
    "FakeOpenAI",
    "RecordedRequest",
    "Reply",
    "Sleep",
    "ToolCallScript",
    "Usage",
    "closed_port_url",
    "cut",
    "error_mid_stream",
    "http_error",
    "overloaded",
    "rate_limited",
    "stall",
    "text",
    "tool_call",
    "tool_calls",
    "unauthorized",
]

API_KEY_PLACEHOLDER = "{api_key}"
"""In an error message, replaced by the key the client presented (a leaky proxy)."""

_ids = itertools.count(1)


# --- scripts ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chunk:
    """One `chat.completion.chunk` whose single choice carries this delta."""

    delta: Mapping[str, Any]
    finish_reason: str | None = None


@dataclass(frozen=True, slots=True)
class Usage:
    """The final usage chunk; sent only when the request asked for it."""

    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None = None
    """OpenAI's `prompt_tokens_details.cached_tokens` (left out when None, as by servers
    that do not cache)."""


@dataclass(frozen=True, slots=True)
class Data:
    """A raw `data:` line, e.g. an error object."""

    text: str


@dataclass(frozen=True, slots=True)
class Sleep:
    seconds: float


@dataclass(frozen=True, slots=True)
class Done:
    """`data: [DONE]`."""


@dataclass(frozen=True, slots=True)
class Cut:
    """Drop the connection here, without ending the chunked body."""


Step: TypeAlias = Chunk | Usage | Data | Sleep | Done | Cut


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted answer: a stream of steps, or an HTTP error with a JSON body."""

    steps: tuple[Step, ...] = ()
    status: int = 200
    error: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    pace: float = 0.0
    """Seconds to wait before each step: a model producing tokens at a rate."""


@dataclass(frozen=True, slots=True)
class ToolCallScript:
    id: str
    name: str
    fragments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    method: str
    path: str
    headers: Mapping[str, str]
    """Lower-cased names."""
    body: Any


_ROLE = Chunk({"role": "assistant", "content": ""})


def text(
    *parts: str,
    finish_reason: str = "stop",
    usage: tuple[int, int] = (12, 7),
    pace: float = 0.0,
    reasoning: Sequence[str] = (),
    reasoning_field: str = "reasoning_content",
) -> Reply:
    """A text reply streamed as one content delta per part, after the `reasoning` parts as
    `reasoning_content` deltas (llama.cpp, vLLM, DeepSeek; newer vLLM names it `reasoning`)."""
    thought = tuple(Chunk({"content": None, reasoning_field: r}) for r in reasoning)
    content = tuple(Chunk({"content": p}) for p in parts)
    steps: tuple[Step, ...] = (
        _ROLE,
        *thought,
        *content,
        Chunk({}, finish_reason),
        Usage(*usage),
        Done(),
    )
    return Reply(steps, pace=pace)


def tool_call(
    name: str, arguments: Mapping[str, Any] | str, *, id: str | None = None, pieces: int = 3
) -> ToolCallScript:
    """A tool call whose JSON arguments arrive split into `pieces` fragments."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    size = max(1, -(-len(raw) // max(1, pieces)))
    fragments = tuple(raw[i : i + size] for i in range(0, len(raw), size))
    return ToolCallScript(id or f"call_fake{next(_ids):04d}", name, fragments)


def tool_calls(
    *calls: ToolCallScript,
    text: Sequence[str] = (),
    interleave: bool = False,
    finish_reason: str = "tool_calls",
    usage: tuple[int, int] = (20, 9),
) -> Reply:
    """Optional text, then the calls' fragments: call by call, or round-robin when `interleave`."""
    per_call: list[list[Step]] = []
    for index, call in enumerate(calls):
        head = {"index": index, "id": call.id, "type": "function"}
        steps: list[Step] = [
            Chunk({"tool_calls": [{**head, "function": {"name": call.name, "arguments": ""}}]})
        ]
        steps += [
            Chunk({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]})
            for fragment in call.fragments
        ]
        per_call.append(steps)
    if interleave:
        rounds = itertools.zip_longest(*per_call)
        fragments = [step for round_ in rounds for step in round_ if step is not None]
    else:
        fragments = [step for steps in per_call for step in steps]
    content = [Chunk({"content": t}) for t in text]
    return Reply((_ROLE, *content, *fragments, Chunk({}, finish_reason), Usage(*usage), Done()))


def http_error(
    status: int,
    message: str,
    *,
    type: str = "server_error",
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Reply:
    """An HTTP error answer with OpenAI's `{"error": {...}}` body."""
    error = {"message": message, "type": type, "param": None, "code": code}
    return Reply(status=status, error=error, headers=dict(headers or {}))


def rate_limited(retry_after: float = 0.05, *, header: str = "retry-after") -> Reply:
    """429; `header` is `retry-after` (seconds) or `retry-after-ms`."""
    value = retry_after * 1000 if header == "retry-after-ms" else retry_after
    return http_error(
        429,
        "Rate limit reached for requests.",
        type="requests",
        code="rate_limit_exceeded",
        headers={header: f"{value:g}"},
    )


def overloaded() -> Reply:
    return http_error(503, "The engine is currently overloaded, please try again later.")


def unauthorized() -> Reply:
    return http_error(
        401,
        f"Incorrect API key provided: {API_KEY_PLACEHOLDER}.",
        type="invalid_request_error",
        code="invalid_api_key",
    )


def cut(*parts: str) -> Reply:
    """Some text, then the connection drops mid-body (no finish, no `[DONE]`)."""
    return Reply((_ROLE, *(Chunk({"content": p}) for p in parts), Cut()))


def error_mid_stream(
    *parts: str, message: str = "The server had an error while processing your request."
) -> Reply:
    """Some text, then an error object in the stream, as OpenAI and vLLM send it."""
    error = {"error": {"message": message, "type": "server_error", "param": None, "code": None}}
    return Reply((_ROLE, *(Chunk({"content": p}) for p in parts), Data(json.dumps(error))))


def stall(seconds: float, *parts: str) -> Reply:
    """Some text, then silence for `seconds` (for read timeouts), then a normal end."""
    content = tuple(Chunk({"content": p}) for p in parts)
    return Reply((_ROLE, *content, Sleep(seconds), Chunk({}, "stop"), Usage(12, 7), Done()))


def closed_port_url() -> str:
    """A base URL nothing listens on: connections are refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# --- server ----------------------------------------------------------------


class _ClientGone(Exception):
    pass


def _is_title_call(body: Any) -> bool:
    messages = body.get("messages") if isinstance(body, dict) else None
    first = messages[0] if isinstance(messages, list) and messages else {}
    return isinstance(first, dict) and first.get("content") == TITLE_INSTRUCTIONS


class FakeOpenAI:
    """The server. `requests` records every request; `push` queues more replies."""

    def __init__(self, replies: Iterable[Reply] = ()) -> None:
        self._replies: deque[Reply] = deque(replies)
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        self.title_requests: list[RecordedRequest] = []
        """Conversation-title calls (chat/titles.py): answered with `title`, kept apart
        from `requests` and the scripted replies, as they come after a first answer."""
        self.title = "A fake title"
        self._disconnected = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    @property
    def pending(self) -> int:
        """Scripted replies not yet served."""
        with self._lock:
            return len(self._replies)

    def wait_for_disconnect(self, timeout: float = 5.0) -> bool:
        """True once a client hung up before its response was complete."""
        return self._disconnected.wait(timeout)

    # lifecycle

    def start(self) -> FakeOpenAI:
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            self._server = loop.run_until_complete(
                asyncio.start_server(self._handle, "127.0.0.1", 0)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="FakeOpenAI", daemon=True)
        self._thread.start()
        if not ready.wait(5):
            raise RuntimeError("FakeOpenAI did not start")
        return self

    def stop(self) -> None:
        if self._loop is None or self._thread is None:
            return
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop = self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> FakeOpenAI:
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # one connection, one request (every answer says `connection: close`)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            request = await _read_request(reader)
            if _is_title_call(request.body):
                self.title_requests.append(request)
                await self._answer(text(self.title), request, reader, writer)
                return
            self.requests.append(request)
            await self._answer(self._reply_for(request), request, reader, writer)
        except (_ClientGone, ConnectionError):
            self._disconnected.set()
        except asyncio.IncompleteReadError:
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    def _reply_for(self, request: RecordedRequest) -> Reply:
        if request.method != "POST" or request.path.rstrip("/") != "/v1/chat/completions":
            return http_error(404, f"FakeOpenAI has no route {request.method} {request.path}")
        if not isinstance(request.body, dict) or request.body.get("stream") is not True:
            return http_error(400, "FakeOpenAI answers streaming chat completions only")
        with self._lock:
            if not self._replies:
                return http_error(500, "FakeOpenAI: no scripted reply left for this request")
            return self._replies.popleft()

    async def _answer(
        self,
        reply: Reply,
        request: RecordedRequest,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        if reply.status != 200:
            presented = request.headers.get("authorization", "").removeprefix("Bearer ")
            error = {
                k: v.replace(API_KEY_PLACEHOLDER, presented) if isinstance(v, str) else v
                for k, v in (reply.error or {}).items()
            }
            body = json.dumps({"error": error}).encode()
            headers = {"content-type": "application/json", "content-length": str(len(body))}
            writer.write(_head(reply.status, {**headers, **reply.headers}) + body)
            await writer.drain()
            return

        headers = {
            "content-type": "text/event-stream; charset=utf-8",
            "transfer-encoding": "chunked",
        }
        writer.write(_head(200, {**headers, **reply.headers}))
        await writer.drain()
        # The client sends nothing more on this connection; EOF means it hung up.
        hangup = asyncio.ensure_future(reader.read(1))
        try:
            chunk_id = f"chatcmpl-fake{next(_ids):04d}"
            for step in reply.steps:
                if reply.pace:
                    await _pause(reply.pace, hangup)
                if isinstance(step, Cut):
                    return
                if isinstance(step, Sleep):
                    await _pause(step.seconds, hangup)
                    continue
                event = _event(step, request.body, chunk_id)
                if event is not None:
                    writer.write(_http_chunk(f"data: {event}\n\n".encode()))
                    await writer.drain()
                if hangup.done():
                    raise _ClientGone
            writer.write(b"0\r\n\r\n")
            await writer.drain()
        finally:
            hangup.cancel()


def _event(step: Chunk | Usage | Data | Done, body: Mapping[str, Any], chunk_id: str) -> str | None:
    if isinstance(step, Done):
        return "[DONE]"
    if isinstance(step, Data):
        return step.text
    options = body.get("stream_options") or {}
    include_usage = bool(options.get("include_usage"))
    chunk: dict[str, Any] = {
        "id": chunk_id,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "system_fingerprint": "fp_fake",
        "choices": [],
    }
    if isinstance(step, Usage):
        if not include_usage:
            return None
        total = step.prompt_tokens + step.completion_tokens
        chunk["usage"] = {
            "prompt_tokens": step.prompt_tokens,
            "completion_tokens": step.completion_tokens,
            "total_tokens": total,
        }
        if step.cached_tokens is not None:
            chunk["usage"]["prompt_tokens_details"] = {"cached_tokens": step.cached_tokens}
    else:
        choice = {"index": 0, "delta": dict(step.delta), "logprobs": None}
        chunk["choices"] = [{**choice, "finish_reason": step.finish_reason}]
        if include_usage:
            chunk["usage"] = None
    return json.dumps(chunk, separators=(",", ":"))


async def _pause(seconds: float, hangup: asyncio.Future[bytes]) -> None:
    await asyncio.wait({hangup}, timeout=seconds)
    if hangup.done():
        raise _ClientGone


async def _read_request(reader: asyncio.StreamReader) -> RecordedRequest:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    request_line, *lines = head.split("\r\n")
    method, path, _ = request_line.split(" ", 2)
    headers: dict[str, str] = {}
    for line in lines:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    raw = await reader.readexactly(length) if length else b""
    try:
        body: Any = json.loads(raw) if raw else None
    except ValueError:
        body = raw.decode("utf-8", "replace")
    return RecordedRequest(method, path, headers, body)


def _head(status: int, headers: Mapping[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}"]
    lines += [f"{k}: {v}" for k, v in {**headers, "connection": "close"}.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _http_chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"
