"""Report tools: summaries, ranked articles, searching and reading what is in the user's reports."""

from __future__ import annotations

import re

import jsonschema
import pytest

from horizon.payloads import PUBMED_ARTICLE_SCHEMA
from pagechat.agent import AgentApprovalRequested
from pagechat.tools import EntityChange
from tests.conftest import Account
from tests.horizon.tools.conftest import Call
from tests.horizon.world import World

_ARTICLE = re.compile(
    r"^\d+\. PMID (\S+) \(rank (\d+), score (0\.\d\d), category: ([^,)]+)(, starred)?"
    r"(, has notes)?\) — (.+)$"
)


async def test_a_report_summary_has_its_date_highlights_and_themes(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "get_report_summary", {"report_id": world.alice_report})

    fields = dict(line.split(": ", 1) for line in ran.text.splitlines())
    assert fields["Report ID"] == str(world.alice_report)
    assert fields["Stream"] == f"CRISPR and gene editing (stream ID {world.alice_stream})"
    assert fields["Date"] == "2025-06-16"
    assert fields["Articles"] == "8"
    assert fields["Key highlights"].count("(PMID ") == 3
    assert fields["Thematic summary"].startswith("8 articles for CRISPR and gene editing.")


async def test_report_articles_come_best_ranked_first(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "get_report_articles", {"report_id": world.alice_report, "limit": 5})

    head, *rest = ran.text.splitlines()
    assert head.startswith(f"Report {world.alice_report} (CRISPR and gene editing, 2025-06-16)")
    assert head.endswith("has 8 articles; the best 5, best ranked first:")
    entries = [m for line in rest if (m := _ARTICLE.match(line))]
    assert [m.group(1) for m in entries] == world.alice_pmids[:5]
    assert [int(m.group(2)) for m in entries] == [1, 2, 3, 4, 5]
    assert entries[0].group(5) == ", starred" and entries[0].group(6) == ", has notes"
    assert "   Why: Matches the topic" in ran.text
    assert "   Your notes: Read in full" in ran.text


@pytest.mark.parametrize("tool", ["get_report_summary", "get_report_articles", "delete_report"])
async def test_another_users_report_is_an_error_the_model_reads(
    call: Call, alice: Account, world: World, tool: str
) -> None:
    ran = await call(alice, tool, {"report_id": world.bob_report})

    assert ran.result.is_error
    assert ran.text.startswith(f"You have no report with ID {world.bob_report};")


async def test_searching_reports_finds_only_the_users_own(
    call: Call, alice: Account, bob: Account, world: World
) -> None:
    mine = await call(alice, "search_articles_in_reports", {"query": "editing"})
    none = await call(bob, "search_articles_in_reports", {"query": "xylophone"})

    head, *lines = mine.text.splitlines()
    assert re.fullmatch(r'\d+ articles in your reports match "editing", best first:', head)
    assert lines and all(re.match(r"- PMID \S+ — .+ \[report \d+ of \"", line) for line in lines)
    assert f"report {world.alice_report} of " in mine.text
    assert f"report {world.bob_report} of " not in mine.text
    assert none.text == 'No article in your reports matches "xylophone".'


async def test_article_details_show_the_users_marks_and_no_one_elses(
    call: Call, alice: Account, bob: Account, world: World
) -> None:
    pmid = world.alice_pmids[0]

    alices = await call(alice, "get_article_details", {"pmid": pmid})
    bobs = await call(bob, "get_article_details", {"pmid": pmid})

    assert f"PMID: {pmid}" in alices.text and "Abstract: " in alices.text
    assert f"- Report ID {world.alice_report} (CRISPR and gene editing, 2025-06-16): rank 1" in (
        alices.text
    )
    assert "starred; your notes: Read in full" in alices.text
    assert f"Report ID {world.alice_report} " not in bobs.text
    payload = alices.result.payload
    assert payload is not None
    jsonschema.validate(payload["data"], PUBMED_ARTICLE_SCHEMA)
    assert [r["report_id"] for r in payload["data"]["reports"]] == [world.alice_report]


async def test_an_article_not_in_the_store_is_an_error_the_model_reads(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "get_article_details", {"pmid": "99999999"})

    assert ran.result.is_error
    assert ran.text.startswith("PMID 99999999 is not in Horizon's article store;")


async def test_deleting_a_report_asks_first_and_then_deletes_it(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "delete_report", {"report_id": world.alice_report})

    asked = ran.events[0]
    assert isinstance(asked, AgentApprovalRequested)
    assert asked.reason.startswith(f"Deletes report {world.alice_report} ")
    assert ran.text == f"Deleted report {world.alice_report}."
    # The pages showing it follow: the result says what it changed.
    assert ran.result.changes == (
        EntityChange(entity="report", id=str(world.alice_report), change="deleted"),
    )
    again = await call(alice, "get_report_summary", {"report_id": world.alice_report})
    assert again.result.is_error
