"""A paper's PDF dropped on a report, end to end: upload it, ask, read the answer and
the card, accept or reject it through the routes the tray uses, and see the stream."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from horizon.payloads import SCHEMA_PROPOSAL
from horizon.pubmed import ArticleRecord
from pagechat.testing import Frame, read_all
from tests.conftest import Account
from tests.horizon.offline.test_papers import paper_pdf
from tests.horizon.pdfs import scanned_pdf
from tests.horizon.world import World

ASK = "What does this paper add?"


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """SQLite only: the layer under test is the assistant, not the database."""
    return sqlite_url


async def _upload(client: httpx.AsyncClient, user: Account, data: bytes, name: str) -> str:
    response = await client.post(
        "/api/attachments", files={"file": (name, data)}, headers=user.headers
    )
    assert response.status_code == 201, response.text
    ident: str = response.json()["id"]
    return ident


async def _ask(
    client: httpx.AsyncClient, user: Account, message: str, context: dict[str, Any], ids: list[str]
) -> tuple[str, list[Frame]]:
    body = {"message": message, "context": context, "attachments": ids}
    async with client.stream(
        "POST", "/api/chat/stream", json=body, headers=user.headers
    ) as response:
        assert response.status_code == 200
        return response.headers["X-Conversation-Id"], await read_all(response)


def _complete(frames: list[Frame]) -> dict[str, Any]:
    [complete] = [f.event for f in frames if f.type == "complete"]
    payload: dict[str, Any] = complete["payload"]
    return payload


def _context(world: World) -> dict[str, Any]:
    return {
        "current_page": "reports",
        "report_id": world.alice_report,
        "stream_id": world.alice_stream,
    }


async def _stream(client: httpx.AsyncClient, user: Account, stream_id: int) -> dict[str, Any]:
    response = await client.get(f"/api/horizon/streams/{stream_id}", headers=user.headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_a_paper_on_a_report_is_summarised_related_and_proposed_for_the_stream(
    horizon_client: httpx.AsyncClient, alice: Account, world: World, crispr_record: ArticleRecord
) -> None:
    paper = await _upload(horizon_client, alice, paper_pdf(crispr_record), "toledo2015.pdf")

    _, frames = await _ask(horizon_client, alice, ASK, _context(world), [paper])

    answer = _complete(frames)
    title = crispr_record.title.rstrip(".")
    first_sentence = crispr_record.abstract.split(". ")[0]
    assert f"The paper is **{title}**." in answer["message"]
    assert first_sentence in answer["message"]
    assert "How it relates to this report: it shares the terms “CRISPR-Cas9”" in answer["message"]
    card = answer["custom_payload"]
    assert card["type"] == SCHEMA_PROPOSAL.type
    before = await _stream(horizon_client, alice, world.alice_stream)
    kept = [t["name"] for t in before["semantic_space"]["topics"]]
    topics = card["data"]["proposed_changes"]["topics"]
    assert [t["name"] for t in topics] == [*kept, title]
    assert topics[-1]["description"] == f"Seed paper: {first_sentence}."


async def test_accepting_the_card_adds_the_paper_to_the_stream(
    horizon_client: httpx.AsyncClient, alice: Account, world: World, crispr_record: ArticleRecord
) -> None:
    paper = await _upload(horizon_client, alice, paper_pdf(crispr_record), "toledo2015.pdf")
    conversation, frames = await _ask(horizon_client, alice, ASK, _context(world), [paper])
    before = await _stream(horizon_client, alice, world.alice_stream)
    card = _complete(frames)["custom_payload"]

    response = await horizon_client.post(
        "/api/chat/actions",
        json={
            "conversation_id": conversation,
            "action": "apply_schema_proposal",
            "data": card["data"],
            "context": _context(world),
        },
        headers=alice.headers,
    )

    assert response.json()["ok"] is True, response.text
    after = await _stream(horizon_client, alice, world.alice_stream)
    names = [t["name"] for t in after["semantic_space"]["topics"]]
    assert names == [t["name"] for t in before["semantic_space"]["topics"]] + [
        crispr_record.title.rstrip(".")
    ]
    assert after["semantic_space"]["topics"][:-1] == before["semantic_space"]["topics"]


async def test_rejecting_the_card_leaves_the_stream_as_it_was(
    horizon_client: httpx.AsyncClient, alice: Account, world: World, crispr_record: ArticleRecord
) -> None:
    paper = await _upload(horizon_client, alice, paper_pdf(crispr_record), "toledo2015.pdf")
    conversation, _ = await _ask(horizon_client, alice, ASK, _context(world), [paper])
    before = await _stream(horizon_client, alice, world.alice_stream)
    messages = (
        await horizon_client.get(f"/api/conversations/{conversation}", headers=alice.headers)
    ).json()["messages"]

    response = await horizon_client.post(
        f"/api/conversations/{conversation}/messages/{messages[-1]['id']}/decision",
        json={"decision": "rejected"},
        headers=alice.headers,
    )

    assert response.status_code == 200, response.text
    assert await _stream(horizon_client, alice, world.alice_stream) == before


async def test_a_scanned_pdf_is_answered_honestly_with_no_card(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    scan = await _upload(horizon_client, alice, scanned_pdf(), "scan.pdf")

    _, frames = await _ask(horizon_client, alice, ASK, _context(world), [scan])

    answer = _complete(frames)
    assert answer["message"].startswith("“scan.pdf” has no text I can read")
    assert answer.get("custom_payload") is None
    assert not [f for f in frames if f.type == "tool_start"]


async def test_a_text_attachment_leaves_the_report_ask_as_it_was(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    notes = await _upload(horizon_client, alice, b"# My notes\nRead later.", "notes.md")

    _, frames = await _ask(horizon_client, alice, "Summarise this report", _context(world), [notes])

    calls = [f.event["tool"] for f in frames if f.type == "tool_start"]
    assert calls == ["get_report_summary", "get_report_articles"]
    answer = _complete(frames)
    assert f"Report {world.alice_report} in short:" in answer["message"]
    assert answer["custom_payload"]["type"] != SCHEMA_PROPOSAL.type


async def test_on_the_streams_page_the_paper_is_summarised_and_the_report_pages_named(
    horizon_client: httpx.AsyncClient, alice: Account, crispr_record: ArticleRecord
) -> None:
    paper = await _upload(horizon_client, alice, paper_pdf(crispr_record), "toledo2015.pdf")

    _, frames = await _ask(horizon_client, alice, ASK, {"current_page": "streams"}, [paper])

    message = _complete(frames)["message"]
    assert crispr_record.title.rstrip(".") in message
    assert "Open a report (or an article of one) and send the PDF there" in message


async def test_on_an_article_of_a_report_the_paper_is_related_to_the_article_and_proposed(
    horizon_client: httpx.AsyncClient, alice: Account, world: World, crispr_record: ArticleRecord
) -> None:
    paper = await _upload(horizon_client, alice, paper_pdf(crispr_record), "toledo2015.pdf")
    article = {"pmid": "1", "title": "Genome-wide screens in glioblastoma stem cells"}
    context = {
        "current_page": "article",
        "article": article,
        "report_id": world.alice_report,
        "stream_id": world.alice_stream,
    }

    _, frames = await _ask(horizon_client, alice, ASK, context, [paper])

    answer = _complete(frames)
    assert "How it relates to this article: it shares the terms “Genome-wide”" in answer["message"]
    assert answer["custom_payload"]["type"] == SCHEMA_PROPOSAL.type


async def test_on_an_article_of_no_report_the_paper_is_related_but_not_proposed(
    horizon_client: httpx.AsyncClient, alice: Account, crispr_record: ArticleRecord
) -> None:
    paper = await _upload(horizon_client, alice, paper_pdf(crispr_record), "toledo2015.pdf")
    context = {"current_page": "article", "article": {"pmid": "1", "title": "Heart failure"}}

    _, frames = await _ask(horizon_client, alice, ASK, context, [paper])

    answer = _complete(frames)
    assert "it shares no subject terms with this article" in answer["message"]
    assert (
        "This page belongs to no stream, so I cannot add the paper to one here."
        in (answer["message"])
    )
    assert answer.get("custom_payload") is None
