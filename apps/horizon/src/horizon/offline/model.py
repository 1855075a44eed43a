"""`OfflineModel`: Horizon's assistant when no language model is configured.

It is a `pagechat.models.Model` like any provider, so it runs through the real
agent loop, tools and reply parser. Each call reads the request (see
`situation`), plans one step (see `plans`), streams the step's text word by
word and then asks for the step's tool calls; the loop runs them and calls it
again with their results. The same request always gives the same reply.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator

from pagechat.chat.titles import title_question
from pagechat.models import (
    AssistantTurn,
    Model,
    ModelEvent,
    ModelFinish,
    ModelRequest,
    ModelToolCall,
    TextDelta,
    TokenUsage,
)

from .plans import plan
from .situation import read_situation
from .titles import offline_title

DEFAULT_DELAY = 0.012
"""Seconds between streamed chunks: enough for the UI to visibly stream."""

_WORD = re.compile(r"\S+\s*|\s+")
# Marker lines and fenced blocks render only once complete; streaming them in
# pieces would only cost time.
_WHOLE_LINE = re.compile(r"[A-Z][A-Z_]*: [\[{]")
_FENCE = re.compile(r"```[^\n]*\n.*?\n```\n?", re.S)


class OfflineModel(Model):
    """Deterministic, network-free answers to Horizon's common asks.

    `delay` is the pause between streamed chunks (0 in tests).
    """

    provider = "offline"
    name = "offline"

    def __init__(self, *, delay: float = DEFAULT_DELAY) -> None:
        self._delay = delay

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.purpose == "title":
            title = offline_title(title_question(request)) or ""
            if title:
                yield TextDelta(text=title)
            yield ModelFinish(stop_reason="end_turn", usage=TokenUsage(0, len(title) // 4))
            return
        situation = read_situation(request)
        step = plan(situation)
        text = step.text
        if situation.done and text and not text.startswith("\n"):
            text = "\n\n" + text  # after the tool card the loop inserts
        if step.calls and text:
            text += "\n\n"
        text = after_prefill(request, text)
        for chunk in chunks(text):
            if self._delay:
                await asyncio.sleep(self._delay)
            yield TextDelta(text=chunk)
        calls = [c for c in step.calls if situation.can_call(c.name)]
        for number, call in enumerate(calls, 1):
            call_id = f"offline_{len(situation.done) + number}"
            yield ModelToolCall(id=call_id, name=call.name, input=dict(call.input))
        prompt = len(request.system) + sum(len(repr(m)) for m in request.messages)
        usage = TokenUsage(prompt // 4, len(text) // 4)
        yield ModelFinish(stop_reason="tool_use" if calls else "end_turn", usage=usage)


def after_prefill(request: ModelRequest, text: str) -> str:
    """What comes after the answer's unfinished part (Continue), when the request ends
    with one: the same request gives the same reply, so the part already shown is the
    reply's beginning and only the rest is new. The whole reply when it does not begin so."""
    last = request.messages[-1] if request.messages else None
    if not (isinstance(last, AssistantTurn) and last.partial):
        return text
    said, whole = last.text.strip(), text.lstrip()
    return whole[len(said) :] if said and whole.startswith(said) else text


def chunks(text: str) -> Iterator[str]:
    """`text` in streaming pieces: words with their trailing space; a marker line or a
    fenced block in one piece. Joined, the pieces are `text` exactly."""
    pos = 0
    for fence in _FENCE.finditer(text):
        yield from _words(text[pos : fence.start()])
        yield fence.group()
        pos = fence.end()
    yield from _words(text[pos:])


def _words(text: str) -> Iterator[str]:
    for line in text.splitlines(keepends=True):
        if _WHOLE_LINE.match(line):
            yield line
        else:
            yield from _WORD.findall(line)
