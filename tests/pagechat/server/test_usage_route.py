"""Token usage for admins: recorded per answer and per conversation-title call, with the
prompt cache's part, through the real Anthropic SDK against the fake API (which keeps a
prompt cache of its own)."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from pagechat.models.anthropic import AnthropicModel
from tests.fakes.anthropic_server import FakeAnthropic, reply
from tests.support.harness import AUTH_A, AUTH_ADMIN, AUTH_B, Harness, harness

TODAY = datetime.now(UTC).date().isoformat()
COUNTS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    async with harness() as h:
        yield h


async def _titled(h: Harness, title: str) -> None:
    """Waits for the title call (in a task of its own after the first answer) to have
    landed: its tokens are recorded before the title is written."""
    async with asyncio.timeout(5):
        while title not in [
            c["title"]
            for c in (await h.client.get("/api/conversations", headers=AUTH_A)).json()["items"]
        ]:
            await asyncio.sleep(0.02)


async def _two_turns(h: Harness, fake: FakeAnthropic) -> tuple[dict[str, Any], dict[str, Any]]:
    model = AnthropicModel("claude-haiku-4-5", api_key="test-key", base_url=fake.base_url)
    h.model = model  # type: ignore[assignment]
    try:
        _, first = await h.chat("What does this report say?")
        conversation = first[-1].event["payload"]["conversation_id"]
        _, second = await h.chat("And its methods?", conversation_id=conversation)
        await _titled(h, fake.title)
    finally:
        await model.aclose()
    return first[-1].event["payload"], second[-1].event["payload"]


async def test_a_second_turn_reads_its_prompt_from_the_cache_and_the_reload_says_so(
    h: Harness,
) -> None:
    with FakeAnthropic(
        reply("It says A.", input_tokens=4000), reply("B.", input_tokens=4200)
    ) as fake:
        first, second = await _two_turns(h, fake)

    assert first["usage"]["cache_read_tokens"] == 0 and first["usage"]["cache_write_tokens"] > 0
    assert second["usage"]["cache_read_tokens"] > 0
    assert second["usage"]["input_tokens"] == 4200
    stored = (await h.stored_conversation()).messages
    assert [m.usage.model_dump() for m in stored if m.usage] == [first["usage"], second["usage"]]


async def test_an_admin_reads_tokens_by_user_model_and_day(h: Harness) -> None:
    with FakeAnthropic(reply("A.", input_tokens=4000), reply("B.", input_tokens=4200)) as fake:
        first, second = await _two_turns(h, fake)

    r = await h.client.get("/api/admin/usage", headers=AUTH_ADMIN)
    by_purpose = await h.client.get(
        "/api/admin/usage", params={"by": "purpose"}, headers=AUTH_ADMIN
    )

    assert r.status_code == 200 and by_purpose.status_code == 200
    answers, title = by_purpose.json()["rows"]
    assert answers == {
        "user": None,
        "model": None,
        "day": None,
        "purpose": "answer",
        "answers": 2,
        "title_calls": 0,
        **{k: first["usage"][k] + second["usage"][k] for k in COUNTS},
    }
    # The title call: what the fake API said it used (its replies report 25 input tokens).
    assert (title["purpose"], title["answers"], title["title_calls"]) == ("title", 0, 1)
    assert title["input_tokens"] == 25 and title["output_tokens"] > 0
    assert r.json()["rows"] == [
        {
            "user": "alice@example.com",
            "model": "anthropic/claude-haiku-4-5",
            "day": TODAY,
            "purpose": None,
            "answers": 2,
            "title_calls": 1,
            **{k: answers[k] + title[k] for k in COUNTS},
        }
    ]


async def test_usage_outlives_a_deleted_conversation_and_groups_as_asked(h: Harness) -> None:
    h.script("one answer")
    _, frames = await h.chat("hi", headers=AUTH_B)
    conversation = frames[-1].event["payload"]["conversation_id"]
    await h.client.delete(f"/api/conversations/{conversation}", headers=AUTH_B)

    r = await h.client.get(
        "/api/admin/usage", params={"by": "user", "format": "csv"}, headers=AUTH_ADMIN
    )

    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [(row["user"], row["answers"]) for row in rows] == [("bob@example.com", "1")]
    assert "model" not in rows[0] and int(rows[0]["output_tokens"]) > 0


async def test_days_outside_the_range_are_left_out(h: Harness) -> None:
    h.script("one answer")
    await h.chat("hi")

    r = await h.client.get("/api/admin/usage", params={"until": "2020-01-01"}, headers=AUTH_ADMIN)

    assert r.status_code == 200 and r.json()["rows"] == []


async def test_usage_is_for_admins_only(h: Harness) -> None:
    assert (await h.client.get("/api/admin/usage", headers=AUTH_A)).status_code == 403
    assert (await h.client.get("/api/admin/usage")).status_code == 401


async def test_a_bad_grouping_or_day_is_a_422_with_a_json_body(h: Harness) -> None:
    for params in ({"by": "colour"}, {"since": "yesterday"}, {"format": "xml"}):
        r = await h.client.get("/api/admin/usage", params=params, headers=AUTH_ADMIN)
        assert r.status_code == 422 and r.json()["detail"], params
