"""The upstream fault matrix, for both providers, through the whole stack.

Each case ends in a defined terminal event, and the user message and any
partial answer are stored.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from pagechat.chat import ChatConfig
from pagechat.models import Model
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.openai import OpenAIModel
from pagechat.models.retry import RetryPolicy
from pagechat.testing import streamed_text
from tests.fakes import anthropic_server as fa
from tests.fakes import openai_server as fo
from tests.support.harness import Harness, harness

FAST_RETRY = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05, max_total_wait=2.0)


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    async with harness(ChatConfig(retry=FAST_RETRY)) as h:
        yield h


@dataclass(frozen=True)
class Case:
    name: str
    replies: Callable[[], list[Any]]
    terminal: str
    code: str | None
    partial: str
    read_timeout: float = 5.0
    refuse: bool = False


ANTHROPIC = [
    Case(
        "429_then_success",
        lambda: [fa.rate_limited(0.05), fa.reply("Hello", " again")],
        "complete",
        None,
        "Hello again",
    ),
    Case("529_until_bound", lambda: [fa.overloaded()] * 3, "error", "overloaded", ""),
    Case("401", lambda: [fa.unauthorized()], "error", "auth", ""),
    Case("connection_refused", lambda: [], "error", "connection", "", refuse=True),
    Case("cut_mid_text", lambda: [fa.reply("Half ", "an", fa.Cut())], "error", None, "Half an"),
    Case(
        "error_event_mid_stream",
        lambda: [fa.reply("Some ", "text", fa.ErrorEvent())],
        "error",
        "overloaded",
        "Some text",
    ),
    Case(
        "read_timeout",
        lambda: [fa.reply("Slow ", fa.Stall(5), "never")],
        "error",
        "timeout",
        "Slow ",
        read_timeout=0.3,
    ),
    # Gaps shorter than the read timeout never end a stream, however long it runs; a
    # silence as long as it does, after any number of them (models/_transport.py).
    Case(
        "read_timeout_after_a_long_slow_stream",
        lambda: [
            fa.reply(
                *("Slow ", fa.Stall(0.15), "but ", fa.Stall(0.15), "alive ", fa.Stall(0.15)),
                *("then ", fa.Stall(5), "never"),
            )
        ],
        "error",
        "timeout",
        "Slow but alive then ",
        read_timeout=0.3,
    ),
]

OPENAI = [
    Case(
        "429_then_success",
        lambda: [fo.rate_limited(0.05), fo.text("Hello", " again")],
        "complete",
        None,
        "Hello again",
    ),
    Case("503_until_bound", lambda: [fo.overloaded()] * 3, "error", "overloaded", ""),
    Case("401", lambda: [fo.unauthorized()], "error", "auth", ""),
    Case("connection_refused", lambda: [], "error", "connection", "", refuse=True),
    Case("cut_mid_text", lambda: [fo.cut("Half ", "an")], "error", None, "Half an"),
    Case(
        "error_mid_stream",
        lambda: [fo.error_mid_stream("Some ", "text")],
        "error",
        "stream",
        "Some text",
    ),
    Case(
        "read_timeout",
        lambda: [fo.stall(5, "Slow ")],
        "error",
        "timeout",
        "Slow ",
        read_timeout=0.3,
    ),
    Case(
        "read_timeout_after_a_long_slow_stream",
        lambda: [
            fo.Reply(
                (
                    fo.Chunk({"role": "assistant", "content": ""}),
                    *(fo.Chunk({"content": "Slow "}), fo.Sleep(0.15)),
                    *(fo.Chunk({"content": "but "}), fo.Sleep(0.15)),
                    *(fo.Chunk({"content": "alive "}), fo.Sleep(0.15)),
                    *(fo.Chunk({"content": "then "}), fo.Sleep(5), fo.Done()),
                )
            )
        ],
        "error",
        "timeout",
        "Slow but alive then ",
        read_timeout=0.3,
    ),
]


async def _run_case(h: Harness, case: Case, model: Model) -> None:
    h.model = model  # type: ignore[assignment]
    _, fs = await h.chat("Hi there")
    last = fs[-1]
    assert last.type == case.terminal, fs
    if case.terminal == "error":
        if case.code is not None:
            assert last.event["code"] == case.code
        message = last.event["message"]
        assert message and "test-key" not in message and "sk-" not in message
    assert streamed_text(fs) == case.partial
    conv = await h.stored_conversation()
    user, answer = conv.messages[0], conv.messages[-1]
    assert user.role == "user" and user.content == "Hi there"
    assert answer.status == case.terminal and answer.content == case.partial
    if case.terminal == "error":
        assert answer.error


@pytest.mark.parametrize("case", ANTHROPIC, ids=lambda c: c.name)
async def test_anthropic_fault(h: Harness, case: Case) -> None:
    with fa.FakeAnthropic(*case.replies()) as fake:
        base = fo.closed_port_url().removesuffix("/v1") if case.refuse else fake.base_url
        model = AnthropicModel(
            "claude-haiku-4-5", api_key="test-key", base_url=base, read_timeout=case.read_timeout
        )
        await _run_case(h, case, model)
        if case.name == "401":
            assert len(fake.requests) == 1  # never retried


@pytest.mark.parametrize("case", OPENAI, ids=lambda c: c.name)
async def test_openai_fault(h: Harness, case: Case) -> None:
    with fo.FakeOpenAI(case.replies()) as fake:
        base = fo.closed_port_url() if case.refuse else fake.base_url
        model = OpenAIModel(
            "gpt-test", api_key="sk-test-key", base_url=base, read_timeout=case.read_timeout
        )
        await _run_case(h, case, model)
        if case.name == "401":
            assert len(fake.requests) == 1
