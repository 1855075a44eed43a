"""`list_research_streams` and `get_stream_details`: the user's own streams, readable by a model."""

from __future__ import annotations

import re

from horizon.domain import DEMO_STREAMS
from tests.conftest import Account
from tests.horizon.tools.conftest import Call
from tests.horizon.world import World


async def test_the_listing_shows_each_stream_with_its_id(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "list_research_streams")

    head, *lines = ran.text.splitlines()
    assert head == "You have 3 research streams:"
    names = [re.findall(r"^- ID \d+: (.+?) — ", line) for line in lines]
    assert names == [[s.name] for s in DEMO_STREAMS]
    assert lines[0].startswith(f"- ID {world.alice_stream}: ")
    assert "(4 topics, 3 reports, latest 2025-06-16)" in lines[0]


async def test_a_user_without_streams_has_none_listed(
    call: Call, alice: Account, bob: Account
) -> None:
    ran = await call(alice, "list_research_streams")

    assert (ran.text, ran.result.is_error) == ("You have no research streams yet.", False)


async def test_the_details_show_every_layer_and_the_latest_reports(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "get_stream_details", {"stream_id": world.alice_stream})

    lines = ran.text.splitlines()
    assert lines[:3] == [
        f"Stream ID: {world.alice_stream}",
        "Name: CRISPR and gene editing",
        f"Purpose: {DEMO_STREAMS[0].purpose}",
    ]
    assert lines[3].startswith("Topics: CRISPR (CRISPR-Cas systems and their uses.); ")
    assert "Entities: CRISPR-Cas9 (method); Cas9 (protein)" in ran.text
    assert 'Retrieval queries: pubmed: ("CRISPR"[Title/Abstract]' in ran.text
    assert "Presentation categories: Clinical evidence; Reviews and guidance" in ran.text
    assert "Reports: 3" in lines
    assert f"- Report ID {world.alice_report} — 2025-06-16, 8 articles" in lines


async def test_another_users_stream_is_an_error_the_model_reads(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "get_stream_details", {"stream_id": world.bob_stream})

    assert ran.result.is_error
    assert ran.text.startswith(f"You have no research stream with ID {world.bob_stream};")
