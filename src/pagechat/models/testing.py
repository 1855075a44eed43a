"""Models for tests: scripted replies and replies computed by a function.

They are public so that app developers can test their own pages through the
real agent loop, HTTP route and UI without an API key::

    model = ScriptedModel([
        ["Let me look.", tool_call("search_pubmed", {"query": "CRISPR"})],
        ["Found 3 articles."],
    ])
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

from ..events import TextDelta
from .base import (
    Model,
    ModelEvent,
    ModelFinish,
    ModelRequest,
    ModelThinking,
    ModelToolCall,
    ReasoningDelta,
    TokenUsage,
)
from .errors import ModelOutputError

__all__ = ["FunctionModel", "Pause", "ScriptItem", "ScriptedModel", "tool_call"]

_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Pause:
    """Wait this long mid-stream (to test cancel and resume while the model streams)."""

    seconds: float


ScriptItem: TypeAlias = (
    str | ReasoningDelta | ModelThinking | ModelToolCall | ModelFinish | Pause | Exception
)
"""A string is a text delta; an exception is raised at that point of the stream."""


def tool_call(
    name: str, input: dict[str, Any] | None = None, *, id: str | None = None
) -> ModelToolCall:
    """A tool call for a script; ids are generated when not given."""
    return ModelToolCall(id=id or f"toolu_{next(_ids):04d}", name=name, input=input or {})


def _estimate_tokens(text: str) -> int:
    # Four characters a token is close enough for English text and for tests.
    return max(1, len(text) // 4) if text else 0


async def _aiter(items: Iterable[ScriptItem]) -> AsyncIterator[ScriptItem]:
    for item in items:
        yield item


async def _play(
    items: AsyncIterator[ScriptItem], request: ModelRequest, delay: float
) -> AsyncIterator[ModelEvent]:
    async with _closing(items):
        async for event in _played(items, request, delay):
            yield event


@contextlib.asynccontextmanager
async def _closing(items: AsyncIterator[ScriptItem]) -> AsyncIterator[None]:
    # A reply function's generator is closed when the answer stops (Stop, a lost client),
    # not whenever the garbage collector gets to it: its `finally` is how a test tells
    # that the model's stream was closed, as a real provider's connection is.
    try:
        yield
    finally:
        close = getattr(items, "aclose", None)
        if close is not None:
            await close()


async def _played(
    items: AsyncIterator[ScriptItem], request: ModelRequest, delay: float
) -> AsyncIterator[ModelEvent]:
    out_chars = 0
    called_tools = False
    async for item in items:
        if isinstance(item, Pause):
            await asyncio.sleep(item.seconds)
            continue
        if isinstance(item, Exception):
            raise item
        if delay:
            await asyncio.sleep(delay)
        if isinstance(item, ModelFinish):
            yield item
            return
        if isinstance(item, str):
            out_chars += len(item)
            yield TextDelta(text=item)
        else:
            called_tools = called_tools or isinstance(item, ModelToolCall)
            yield item
    prompt_chars = len(request.system) + sum(len(repr(m)) for m in request.messages)
    usage = TokenUsage(_estimate_tokens("x" * prompt_chars), _estimate_tokens("x" * out_chars))
    yield ModelFinish(stop_reason="tool_use" if called_tools else "end_turn", usage=usage)


async def _title(title: str | None) -> AsyncIterator[ModelEvent]:
    if title:
        yield TextDelta(text=title)
    yield ModelFinish(stop_reason="end_turn", usage=TokenUsage(0, _estimate_tokens(title or "")))


class ScriptedModel(Model):
    """Plays back one scripted reply per model call, in order.

    Every request is kept in `requests`, so a test can assert what the model
    was shown (system prompt, tools, history). `delay` sleeps before each
    item, which makes a script stream like a real model.

    A conversation's title request (`ModelRequest.purpose == "title"`) is answered with
    `title` (none by default: the conversation keeps its first-message title) and uses
    no scripted reply; it is kept in `title_requests`.
    """

    provider = "scripted"
    name = "scripted"

    def __init__(
        self,
        replies: Sequence[Sequence[ScriptItem] | str],
        *,
        delay: float = 0.0,
        title: str | None = None,
    ) -> None:
        self._replies = [[r] if isinstance(r, str) else list(r) for r in replies]
        self._delay = delay
        self.title = title
        """What a title call (`purpose == "title"`) is answered with; None: nothing."""
        self.requests: list[ModelRequest] = []
        self.title_requests: list[ModelRequest] = []

    @property
    def remaining(self) -> int:
        """How many scripted replies no request has used yet."""
        return len(self._replies) - len(self.requests)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.purpose == "title":
            self.title_requests.append(request)
            async for event in _title(self.title):
                yield event
            return
        index = len(self.requests)
        self.requests.append(request)
        if index >= len(self._replies):
            raise ModelOutputError(
                f"ScriptedModel has {len(self._replies)} scripted replies; "
                f"call {index + 1} has none"
            )
        async for event in _play(_aiter(self._replies[index]), request, self._delay):
            yield event


ReplyFunction: TypeAlias = Callable[
    [ModelRequest],
    AsyncIterator[ScriptItem] | Awaitable[Sequence[ScriptItem] | str] | Sequence[ScriptItem] | str,
]


class FunctionModel(Model):
    """Computes each reply from the request with your function.

    The function may return a string, a list of script items, an awaitable of
    either, or be an async generator of script items (which streams). Title requests
    are answered with `title`, as by `ScriptedModel`, without calling the function.
    """

    provider = "function"
    name = "function"

    def __init__(
        self, function: ReplyFunction, *, delay: float = 0.0, title: str | None = None
    ) -> None:
        self._function = function
        self._delay = delay
        self.title = title
        """What a title call (`purpose == "title"`) is answered with; None: nothing."""
        self.requests: list[ModelRequest] = []

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.purpose == "title":
            async for event in _title(self.title):
                yield event
            return
        self.requests.append(request)
        result = self._function(request)
        items: AsyncIterator[ScriptItem]
        if inspect.isasyncgen(result):
            items = cast(AsyncIterator[ScriptItem], result)
        else:
            if inspect.isawaitable(result):
                result = await result
            items = _aiter([result] if isinstance(result, str) else result)  # type: ignore[arg-type]
        async for event in _play(items, request, self._delay):
            yield event
