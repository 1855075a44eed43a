"""Conversation titles written by the model after the first answer (chat/titles.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from pagechat.chat import ChatConfig
from pagechat.chat.titles import TITLE_INSTRUCTIONS, clean_title, title_question, title_request
from pagechat.events import TextDelta
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.base import Model, ModelEvent, ModelFinish, ModelRequest
from pagechat.models.testing import ScriptedModel
from tests.fakes.anthropic_server import FakeAnthropic, reply
from tests.support.harness import AUTH_A, AUTH_ADMIN, Harness, harness


async def _titles(h: Harness) -> list[str]:
    listed = (await h.client.get("/api/conversations", headers=AUTH_A)).json()
    return [c["title"] for c in listed["items"]]


async def _eventually(h: Harness, title: str) -> None:
    async with asyncio.timeout(5):
        while title not in await _titles(h):
            await asyncio.sleep(0.02)


class _HeldTitles(Model):
    """Answers at once; holds each title call until `release` is set."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.asked = asyncio.Event()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.purpose == "title":
            self.asked.set()
            await self.release.wait()
            yield TextDelta(text="Held title")
        else:
            yield TextDelta(text="The answer.")
        yield ModelFinish(stop_reason="end_turn")


def test_the_reply_is_cleaned_into_a_title() -> None:
    assert clean_title('**Title: "CRISPR in crops".**\nMore text') == "CRISPR in crops"
    assert clean_title("# Gene drives\n") == "Gene drives"
    assert clean_title("  \n\n") is None
    long = clean_title("word " * 40)
    assert long is not None and len(long) <= 60 and long.endswith("…")


def test_the_title_request_carries_the_start_of_the_conversation_as_data() -> None:
    request = title_request("What is CRISPR?" + "x" * 5000, "Gene editing.")
    assert request.system == TITLE_INSTRUCTIONS and request.purpose == "title"
    assert not request.tools and request.max_tokens <= 32
    assert title_question(request).startswith("What is CRISPR?")
    assert len(request.messages[0].text) < 3200  # type: ignore[union-attr]


async def test_the_first_answer_gets_the_models_title() -> None:
    async with harness() as h:
        h.model = ScriptedModel(["Gene editing, mostly."], title="CRISPR basics")
        await h.chat("what is CRISPR and how does it work?")
        await _eventually(h, "CRISPR basics")


async def test_a_later_answer_does_not_retitle() -> None:
    async with harness() as h:
        h.model = ScriptedModel(["One.", "Two."], title="First title")
        _, frames = await h.chat("first question")
        await _eventually(h, "First title")
        h.model = ScriptedModel(["Three."], title="Second title")
        conversation = frames[-1].event["payload"]["conversation_id"]
        await h.chat("second question", conversation_id=conversation)
        await asyncio.sleep(0.2)
        assert await _titles(h) == ["First title"]
        assert h.model.title_requests == []


async def test_the_title_never_delays_the_answer_and_arrives_after_it() -> None:
    async with harness() as h:
        model = _HeldTitles()
        h.model = model  # type: ignore[assignment]
        _, frames = await h.chat("tell me about tardigrades")
        assert frames[-1].type == "complete"
        await asyncio.wait_for(model.asked.wait(), 5)
        assert await _titles(h) == ["tell me about tardigrades"]
        model.release.set()
        await _eventually(h, "Held title")


async def test_a_conversation_renamed_before_its_title_keeps_the_users_name() -> None:
    async with harness() as h:
        model = _HeldTitles()
        h.model = model  # type: ignore[assignment]
        _, frames = await h.chat("tell me about tardigrades")
        await asyncio.wait_for(model.asked.wait(), 5)
        conversation = frames[-1].event["payload"]["conversation_id"]
        renamed = await h.client.patch(
            f"/api/conversations/{conversation}", json={"title": "Mine"}, headers=AUTH_A
        )
        assert renamed.status_code == 200
        model.release.set()
        await asyncio.sleep(0.2)
        assert await _titles(h) == ["Mine"]


async def test_titles_off_keeps_the_first_message() -> None:
    async with harness(ChatConfig(model_titles=False)) as h:
        h.model = ScriptedModel(["Answer."], title="Never used")
        await h.chat("keep my words")
        await asyncio.sleep(0.2)
        assert await _titles(h) == ["keep my words"] and h.model.title_requests == []


async def test_a_failing_title_call_keeps_the_first_message() -> None:
    class _NoTitles(ScriptedModel):
        async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
            if request.purpose == "title":
                raise RuntimeError("the title call failed")
            async for event in super().stream(request):
                yield event

    async with harness() as h:
        h.model = _NoTitles(["Answer."])
        _, frames = await h.chat("keep my words")
        assert frames[-1].type == "complete"
        await asyncio.sleep(0.2)
        assert await _titles(h) == ["keep my words"]
        usage = await h.client.get("/api/admin/usage", params={"by": "purpose"}, headers=AUTH_ADMIN)
        assert [row["purpose"] for row in usage.json()["rows"]] == ["answer"]


async def test_the_title_calls_tokens_are_the_users_even_when_renamed_meanwhile() -> None:
    async with harness() as h:
        model = _HeldTitles()
        h.model = model  # type: ignore[assignment]
        _, frames = await h.chat("tell me about tardigrades")
        await asyncio.wait_for(model.asked.wait(), 5)
        conversation = frames[-1].event["payload"]["conversation_id"]
        await h.client.patch(
            f"/api/conversations/{conversation}", json={"title": "Mine"}, headers=AUTH_A
        )
        model.release.set()
        async with asyncio.timeout(5):
            while len(rows := await _usage_by_purpose(h)) < 2:
                await asyncio.sleep(0.02)
        assert [(r["purpose"], r["answers"], r["title_calls"]) for r in rows] == [
            ("answer", 1, 0),
            ("title", 0, 1),
        ]
        assert await _titles(h) == ["Mine"]


async def _usage_by_purpose(h: Harness) -> list[dict[str, object]]:
    r = await h.client.get(
        "/api/admin/usage", params={"by": ["user", "purpose"]}, headers=AUTH_ADMIN
    )
    rows: list[dict[str, object]] = r.json()["rows"]
    assert all(row["user"] == "alice@example.com" for row in rows)
    return rows


@pytest.mark.parametrize("cached", [True, False])
async def test_the_title_call_through_the_real_sdk_is_small_and_uncached(cached: bool) -> None:
    async with harness() as h:
        with FakeAnthropic(reply("CRISPR is gene editing.")) as fake:
            fake.title = "Gene editing with CRISPR"
            model = AnthropicModel(
                "claude-haiku-4-5", api_key="k", base_url=fake.base_url, prompt_cache=cached
            )
            h.model = model  # type: ignore[assignment]
            try:
                await h.chat("what is CRISPR?")
                await _eventually(h, "Gene editing with CRISPR")
            finally:
                await model.aclose()
        (sent,) = fake.title_requests
        assert sent["system"] == TITLE_INSTRUCTIONS and sent["max_tokens"] <= 32
        assert "tools" not in sent and "cache_control" not in str(sent)
        assert "what is CRISPR?" in sent["messages"][0]["content"][0]["text"]
        assert len(fake.requests) == 1  # the answer's own call
