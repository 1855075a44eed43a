"""The history routes, and every route's isolation between two users, on a real database."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from pagechat.auth import JwtAuthenticator
from pagechat.events import ReasoningDelta
from pagechat.models import FunctionModel, Pause, ProviderError, ScriptItem, tool_call
from pagechat.runs import Run, RunManager
from pagechat.tools import (
    Source,
    ToolConfig,
    ToolContext,
    ToolResult,
    clear_tools,
    register_tool,
)
from tests.conftest import Account

Replies = list[list[ScriptItem]]


def _events(response: httpx.Response) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")]


async def _chat(
    client: httpx.AsyncClient, who: Account, message: str, **body: Any
) -> httpx.Response:
    response = await client.post(
        "/api/chat/stream", json={"message": message, **body}, headers=who.headers
    )
    return response


async def _conversation(client: httpx.AsyncClient, who: Account, message: str = "hello") -> str:
    response = await _chat(client, who, message)
    assert response.status_code == 200
    return response.headers["X-Conversation-Id"]


def _runs(app: FastAPI) -> RunManager:
    runs: RunManager = app.state.runs
    return runs


async def _running_run(app: FastAPI, *, events: int) -> Run:
    """The app's one live run, once it has written `events` events."""
    for _ in range(500):
        active = _runs(app).active()
        if active and active[0].log.last_seq >= events:
            return active[0]
        await asyncio.sleep(0.01)
    raise AssertionError("no run got going within 5 s")


@pytest.fixture
def _search_tool() -> Iterator[None]:
    def search(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult(
            text=f"2 articles about {params['q']}",
            payload={"type": "article_list", "data": {"pmids": ["11", "22"]}},
        )

    clear_tools()
    register_tool(
        ToolConfig(
            name="search",
            description="Search articles",
            input_schema={"type": "object", "properties": {"q": {"type": "string"}}},
            executor=search,
        )
    )
    yield
    clear_tools()


@pytest.mark.usefixtures("_search_tool")
async def test_a_stored_answer_holds_everything_the_live_one_showed(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies += [
        ["Let me look.", tool_call("search", {"q": "prime editing"})],
        ['Found two.\nSUGGESTED_VALUES: [{"label": "More", "value": "show more"}]'],
    ]
    live = await _chat(client, alice, "Find prime editing papers", context={"tab": "search"})
    done = _events(live)[-1]
    assert done["type"] == "complete"

    response = await client.get(
        f"/api/conversations/{live.headers['X-Conversation-Id']}", headers=alice.headers
    )

    assert response.status_code == 200
    detail = response.json()
    assert detail["title"] == "Find prime editing papers"
    question, answer = detail["messages"]
    assert (question["role"], question["content"]) == ("user", "Find prime editing papers")
    payload = done["payload"]
    assert answer["id"] == payload["message_id"]
    assert answer["status"] == "complete"
    assert answer["content"] == payload["message"]
    assert answer["content"].startswith("Let me look.[[tool:0]]Found two.")
    for field in ("tool_history", "payloads", "custom_payload", "suggested_values", "usage"):
        assert answer[field] == payload[field], field
    assert answer["tool_history"][0]["output"] == "2 articles about prime editing"
    assert answer["suggested_values"] == [{"label": "More", "value": "show more"}]


async def test_the_reasoning_is_stored_with_the_answer_and_shown_to_its_owner_only(
    client: httpx.AsyncClient, alice: Account, bob: Account, replies: Replies
) -> None:
    replies.append(
        [
            ReasoningDelta(text="The user asks "),
            Pause(0.05),
            ReasoningDelta(text="about CRISPR."),
            "CRISPR edits genes.",
        ]
    )
    live = await _chat(client, alice, "What is CRISPR?")
    events = _events(live)
    path = f"/api/conversations/{live.headers['X-Conversation-Id']}"

    mine = await client.get(path, headers=alice.headers)
    theirs = await client.get(path, headers=bob.headers)

    shown = [e["text"] for e in events if e["type"] == "reasoning"]
    assert shown == ["The user asks ", "about CRISPR."]
    live_reasoning = events[-1]["payload"]["reasoning"]
    assert live_reasoning["text"] == "The user asks about CRISPR."
    assert live_reasoning["seconds"] >= 0
    answer = mine.json()["messages"][1]
    assert answer["reasoning"] == live_reasoning
    assert answer["content"] == "CRISPR edits genes."
    assert theirs.status_code == 404
    assert "CRISPR" not in theirs.text


async def test_an_answer_without_reasoning_has_none(
    client: httpx.AsyncClient, alice: Account
) -> None:
    live = await _chat(client, alice, "hello")
    path = f"/api/conversations/{live.headers['X-Conversation-Id']}"

    answer = (await client.get(path, headers=alice.headers)).json()["messages"][1]

    assert _events(live)[-1]["payload"]["reasoning"] is None
    assert answer["reasoning"] is None


async def test_the_page_context_audit_reaches_admins_only(
    client: httpx.AsyncClient, alice: Account, admin: Account
) -> None:
    # No page: the default context builder, whatever other tests registered.
    context = {"report_id": 42}
    mine = await _chat(client, alice, "What is on this page?", context=context)
    theirs = await _chat(client, admin, "What is on this page?", context=context)

    as_user = await client.get(
        f"/api/conversations/{mine.headers['X-Conversation-Id']}", headers=alice.headers
    )
    as_admin = await client.get(
        f"/api/conversations/{theirs.headers['X-Conversation-Id']}", headers=admin.headers
    )

    assert [m["context_audit"] for m in as_user.json()["messages"]] == [None, None]
    assert '"report_id": 42' in as_admin.json()["messages"][1]["context_audit"]
    assert "context_audit" not in mine.text


async def test_a_stopped_answer_is_stored_with_its_partial_text(
    app: FastAPI, client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append(["The first half", Pause(30), " never shown"])
    stream = asyncio.create_task(_chat(client, alice, "Tell me everything"))
    run = await _running_run(app, events=2)

    cancel = await client.post(f"/api/chat/runs/{run.id}/cancel", headers=alice.headers)
    live = await stream

    assert cancel.status_code == 202
    assert _events(live)[-1] == {"type": "cancelled"}
    detail = await client.get(
        f"/api/conversations/{live.headers['X-Conversation-Id']}", headers=alice.headers
    )
    answer = detail.json()["messages"][1]
    assert (answer["content"], answer["status"]) == ("The first half", "cancelled")


async def test_a_failed_answer_is_stored_with_its_error(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append(["Working on it", ProviderError("auth", "The API key was refused")])

    live = await _chat(client, alice, "Go")

    detail = await client.get(
        f"/api/conversations/{live.headers['X-Conversation-Id']}", headers=alice.headers
    )
    answer = detail.json()["messages"][1]
    assert answer["status"] == "error"
    assert answer["content"] == "Working on it"
    assert "The API key was refused" in answer["error"]


async def test_the_list_is_newest_first_and_paginated(
    client: httpx.AsyncClient, alice: Account
) -> None:
    made = [await _conversation(client, alice, f"topic {i}") for i in range(3)]
    await _chat(client, alice, "again", conversation_id=made[0])

    first = await client.get("/api/conversations?limit=2", headers=alice.headers)
    second = await client.get("/api/conversations?offset=2&limit=2", headers=alice.headers)

    assert [c["id"] for c in first.json()["items"]] == [made[0], made[2]]
    assert first.json()["total"] == 3
    assert [c["title"] for c in second.json()["items"]] == ["topic 1"]


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "offset=-1", "limit=ten"])
async def test_bad_paging_gets_422(client: httpx.AsyncClient, alice: Account, query: str) -> None:
    response = await client.get(f"/api/conversations?{query}", headers=alice.headers)

    assert response.status_code == 422
    assert response.json()["detail"]


async def test_a_conversation_can_be_renamed(client: httpx.AsyncClient, alice: Account) -> None:
    conversation_id = await _conversation(client, alice)

    response = await client.patch(
        f"/api/conversations/{conversation_id}",
        json={"title": "  Base   editing "},
        headers=alice.headers,
    )

    assert response.status_code == 200
    assert response.json()["title"] == "Base editing"
    listed = await client.get("/api/conversations", headers=alice.headers)
    assert listed.json()["items"][0]["title"] == "Base editing"


@pytest.mark.parametrize("title", ["   ", "", "x" * 201])
async def test_a_bad_title_gets_422(client: httpx.AsyncClient, alice: Account, title: str) -> None:
    conversation_id = await _conversation(client, alice)

    response = await client.patch(
        f"/api/conversations/{conversation_id}", json={"title": title}, headers=alice.headers
    )

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "title"]


async def test_a_deleted_conversation_is_gone(client: httpx.AsyncClient, alice: Account) -> None:
    conversation_id = await _conversation(client, alice)

    deleted = await client.delete(f"/api/conversations/{conversation_id}", headers=alice.headers)

    assert deleted.status_code == 204
    assert deleted.content == b""
    gone = await client.get(f"/api/conversations/{conversation_id}", headers=alice.headers)
    assert gone.status_code == 404
    assert gone.json() == {"detail": "Conversation not found"}
    assert (await client.get("/api/conversations", headers=alice.headers)).json()["total"] == 0


async def test_deleting_a_conversation_stops_its_running_answer(
    app: FastAPI, client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append(["Thinking", Pause(30)])
    stream = asyncio.create_task(_chat(client, alice, "slow"))
    run = await _running_run(app, events=1)

    await client.delete(f"/api/conversations/{run.conversation_id}", headers=alice.headers)

    live = await asyncio.wait_for(stream, 5)
    assert _events(live)[-1] == {"type": "cancelled"}


async def test_another_users_conversation_and_run_answer_404_everywhere(
    app: FastAPI, client: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    live = await _chat(client, alice, "private matter")
    conversation_id = live.headers["X-Conversation-Id"]
    run_id = live.headers["X-Run-Id"]
    path = f"/api/conversations/{conversation_id}"

    answers = [
        await client.get(path, headers=bob.headers),
        await client.patch(path, json={"title": "mine"}, headers=bob.headers),
        await client.delete(path, headers=bob.headers),
        await _chat(client, bob, "hijack", conversation_id=conversation_id),
        await client.get(f"/api/chat/runs/{run_id}/events", headers=bob.headers),
        await client.post(f"/api/chat/runs/{run_id}/cancel", headers=bob.headers),
    ]

    assert [r.status_code for r in answers] == [404] * len(answers)
    assert all("detail" in r.json() for r in answers)
    assert (await client.get("/api/conversations", headers=bob.headers)).json()["items"] == []
    still = await client.get(path, headers=alice.headers)
    assert still.json()["title"] == "private matter"
    assert len(still.json()["messages"]) == 2


async def test_a_missing_conversation_answers_404(
    client: httpx.AsyncClient, alice: Account
) -> None:
    response = await client.get("/api/conversations/does-not-exist", headers=alice.headers)

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/auth/me"),
        ("GET", "/api/conversations"),
        ("GET", "/api/conversations/x"),
        ("PATCH", "/api/conversations/x"),
        ("DELETE", "/api/conversations/x"),
        ("POST", "/api/chat/stream"),
        ("GET", "/api/chat/runs/x/events"),
        ("POST", "/api/chat/runs/x/cancel"),
    ],
)
async def test_every_private_route_needs_a_token(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    body = {"message": "hi", "title": "t"} if method in ("POST", "PATCH") else None

    response = await client.request(method, path, json=body)

    assert response.status_code == 401


async def test_opening_a_conversation_costs_one_query_beyond_the_token_check(
    engine: AsyncEngine,
    authenticator: JwtAuthenticator,
    client: httpx.AsyncClient,
    alice: Account,
    replies: Replies,
) -> None:
    conversation_id = await _conversation(client, alice)
    for i in range(5):
        await _chat(client, alice, f"more {i}", conversation_id=conversation_id)
    selects: list[str] = []

    def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # A page is a recursive CTE: it starts with WITH.
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            selects.append(statement)

    # On SQLite the token check reads the user through the point reader.
    reader = authenticator.registry._reader
    engines = [engine.sync_engine, *([reader] if reader else [])]
    for each in engines:
        event.listen(each, "before_cursor_execute", _count)
    try:
        response = await client.get(f"/api/conversations/{conversation_id}", headers=alice.headers)
    finally:
        for each in engines:
            event.remove(each, "before_cursor_execute", _count)

    assert len(response.json()["messages"]) == 12
    # The token check; the page (the active path walked up from its leaf, with each
    # message's siblings and feedback, in the owned conversation).
    assert len(selects) == 2


async def test_a_long_conversation_loads_its_newest_page_and_pages_back(
    client: httpx.AsyncClient, alice: Account
) -> None:
    conversation_id = await _conversation(client, alice, "m0")
    for i in range(1, 30):  # 60 messages: m0, its answer, m1, ...
        await _chat(client, alice, f"m{i}", conversation_id=conversation_id)
    url = f"/api/conversations/{conversation_id}"

    first = (await client.get(url, headers=alice.headers)).json()
    older = (await client.get(url, params={"before": first["older"]}, headers=alice.headers)).json()

    assert len(first["messages"]) == 50 and first["messages"][-1]["role"] == "assistant"
    assert first["messages"][0]["content"] == "m5"  # 60 messages, the newest 50
    assert [m["content"] for m in older["messages"] if m["role"] == "user"] == [
        f"m{i}" for i in range(5)
    ]
    assert older["older"] is None


async def test_a_cursor_no_page_of_this_conversation_gave_is_a_422_not_a_500(
    client: httpx.AsyncClient, alice: Account
) -> None:
    mine = await _conversation(client, alice, "mine")
    other = await _conversation(client, alice, "other")
    await _chat(client, alice, "more", conversation_id=other)
    elsewhere = (
        await client.get(f"/api/conversations/{other}", params={"limit": 1}, headers=alice.headers)
    ).json()["older"]
    assert elsewhere is not None

    # "²" is a digit to str.isdigit, not to int(): it was an unhandled ValueError.
    statuses = [
        (
            await client.get(
                f"/api/conversations/{mine}", params={"before": cursor}, headers=alice.headers
            )
        ).status_code
        for cursor in ("²", "9" * 19, elsewhere)
    ]

    assert statuses == [422, 422, 422]


@pytest.mark.parametrize(
    "params", [{"before": "nope"}, {"before": "1" * 40}, {"limit": 0}, {"limit": 201}]
)
async def test_a_bad_page_request_is_a_422(
    client: httpx.AsyncClient, alice: Account, params: dict[str, Any]
) -> None:
    conversation_id = await _conversation(client, alice)

    r = await client.get(
        f"/api/conversations/{conversation_id}", params=params, headers=alice.headers
    )

    assert r.status_code == 422 and r.json()["detail"]


def _article(pmid: str, title: str) -> Source:
    return Source(
        id=pmid,
        title=title,
        url=f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/",
        detail="Nature, 2021",
        snippet=f"The abstract of {title}.",
    )


@pytest.fixture
def _cited_search_tool() -> Iterator[None]:
    found = {
        "prime editing": [_article("11", "Prime editing"), _article("22", "Base editing")],
        "base editing": [_article("22", "Base editing"), _article("33", "Off-target effects")],
    }

    def search(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
        # A bracketed number in the data itself is data: never a citation.
        return ToolResult(text="Results as in [3] of the review.", sources=found[params["q"]])

    clear_tools()
    register_tool(
        ToolConfig(
            name="search",
            description="Search articles",
            input_schema={"type": "object", "properties": {"q": {"type": "string"}}},
            executor=search,
        )
    )
    yield
    clear_tools()


@pytest.mark.usefixtures("_cited_search_tool")
async def test_sources_are_numbered_per_answer_told_to_the_model_and_stored(
    client: httpx.AsyncClient, alice: Account, replies: Replies, model: FunctionModel
) -> None:
    replies += [
        [tool_call("search", {"q": "prime editing"}), tool_call("search", {"q": "base editing"})],
        ["Prime editing works [1]; base editing too [2][3]."],
    ]
    live = await _chat(client, alice, "Find editing papers")
    events = _events(live)
    detail = await client.get(
        f"/api/conversations/{live.headers['X-Conversation-Id']}", headers=alice.headers
    )

    completes = [e for e in events if e["type"] == "tool_complete"]
    assert [[(s["number"], s["id"]) for s in e["sources"]] for e in completes] == [
        [(1, "11"), (2, "22")],
        [(2, "22"), (3, "33")],  # the same article keeps its number
    ]
    payload = events[-1]["payload"]
    assert [(s["number"], s["title"]) for s in payload["sources"]] == [
        (1, "Prime editing"),
        (2, "Base editing"),
        (3, "Off-target effects"),
    ]
    assert payload["sources"][0]["url"] == "https://pubmed.ncbi.nlm.nih.gov/11/"
    answer = detail.json()["messages"][1]
    assert answer["sources"] == payload["sources"]
    assert answer["tool_history"] == payload["tool_history"]
    # The model read each result's sources after its text, numbered as the answer has them.
    results = model.requests[1].messages[-1]
    first, second = (part.content for part in results.results)  # type: ignore[union-attr]
    assert first.startswith("Results as in [3] of the review.\n\nSources (cite")
    assert "[1] Prime editing. Nature, 2021. https://pubmed.ncbi.nlm.nih.gov/11/" in first
    assert "[2] Base editing." in second and "[3] Off-target effects." in second
    assert "cite it right after the statement as [n]" in model.requests[0].system


async def test_an_answer_without_sources_has_none(
    client: httpx.AsyncClient, alice: Account
) -> None:
    live = await _chat(client, alice, "hello")
    path = f"/api/conversations/{live.headers['X-Conversation-Id']}"

    answer = (await client.get(path, headers=alice.headers)).json()["messages"][1]

    assert _events(live)[-1]["payload"]["sources"] == []
    assert answer["sources"] == []
