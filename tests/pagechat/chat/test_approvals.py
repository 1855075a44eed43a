"""Tool approval: a turn pauses before a call the user must approve, survives a reload,
a restart and another worker, and goes on with the decision."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import pagechat.pages.registry
from pagechat.auth import JwtAuthenticator
from pagechat.chat import ChatConfig
from pagechat.chat.paused import SavedTurn, ToolCard
from pagechat.models import FunctionModel, ScriptItem, tool_call
from pagechat.models.base import ModelFinish, ModelRequest, TokenUsage, ToolResultsTurn
from pagechat.pages import PayloadConfig, register_page
from pagechat.quotas import MemoryQuotas, QuotaPolicy, Quotas, QuotaSettings
from pagechat.runs import RunManager
from pagechat.runs.redis import RedisRunManager
from pagechat.server import create_app
from pagechat.store import SqlChatStore
from pagechat.store.approvals import Approval
from pagechat.testing import Frame, read_all
from pagechat.tools import ToolConfig, ToolContext, clear_tools, register_tool
from tests.conftest import Account

Replies = list[list[ScriptItem]]


@pytest.fixture
def deleted() -> list[int]:
    return []


@pytest.fixture(autouse=True)
def _tools(deleted: list[int]) -> Iterator[None]:
    def delete_report(params: dict[str, Any], ctx: ToolContext) -> str:
        deleted.append(params["id"])
        return f"Deleted report {params['id']}."

    def search(params: dict[str, Any], ctx: ToolContext) -> str:
        return "3 articles."

    clear_tools()
    schema = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
    register_tool(
        ToolConfig(
            name="delete_report",
            description="Delete a report. It cannot be undone.",
            input_schema=schema,
            executor=delete_report,
            requires_approval=True,
        )
    )
    register_tool(
        ToolConfig(
            name="search",
            description="Search articles",
            input_schema={"type": "object", "properties": {"online": {"type": "boolean"}}},
            executor=search,
            requires_approval=lambda params: bool(params.get("online")),
            approval_reason=lambda params: "Searches PubMed online.",
        )
    )
    yield
    clear_tools()


def _app(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
    *,
    runs: RunManager | None = None,
    config: ChatConfig | None = None,
    quotas: Quotas | None = None,
) -> FastAPI:
    return create_app(
        model=model,
        store=SqlChatStore(sessions),
        authenticator=authenticator,
        sessions=sessions,
        runs=runs,
        config=config,
        quotas=quotas,
    )


@pytest.fixture
def approving_app(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
) -> FastAPI:
    return _app(sessions, authenticator, model)


@pytest.fixture
async def client(approving_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=approving_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


async def _ask(
    client: httpx.AsyncClient, who: Account, message: str, context: dict[str, Any] | None = None
) -> list[Frame]:
    body = {"message": message, "context": context or {}}
    async with client.stream(
        "POST", "/api/chat/stream", json=body, headers=who.headers
    ) as response:
        assert response.status_code == 200
        return await read_all(response)


async def _decide(
    client: httpx.AsyncClient, who: Account, approval_id: str, body: dict[str, Any]
) -> httpx.Response:
    return await client.post(f"/api/chat/approvals/{approval_id}", json=body, headers=who.headers)


async def _follow(client: httpx.AsyncClient, who: Account, run_id: str) -> list[Frame]:
    async with client.stream(
        "GET", f"/api/chat/runs/{run_id}/events", headers=who.headers
    ) as response:
        assert response.status_code == 200
        return await read_all(response)


async def _messages(
    client: httpx.AsyncClient, who: Account, conversation_id: str
) -> list[dict[str, Any]]:
    response = await client.get(f"/api/conversations/{conversation_id}", headers=who.headers)
    assert response.status_code == 200
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


def _tool_results(request: ModelRequest) -> list[tuple[str, bool]]:
    return [
        (r.content, r.is_error)
        for m in request.messages
        if isinstance(m, ToolResultsTurn)
        for r in m.results
    ]


async def test_the_turn_pauses_before_a_call_that_needs_approval(
    client: httpx.AsyncClient, alice: Account, replies: Replies, deleted: list[int]
) -> None:
    replies.append(["I will delete it.", tool_call("delete_report", {"id": 7})])

    frames = await _ask(client, alice, "Delete report 7")

    last = frames[-1].event
    assert last["type"] == "approval_requested"
    assert last["tool"] == "delete_report"
    assert last["input"] == {"id": 7}
    assert last["reason"] == "Delete a report."
    assert "tool_start" not in [f.type for f in frames]
    assert deleted == []
    messages = await _messages(client, alice, last["conversation_id"])
    assert messages[1]["status"] == "needs_approval"
    assert messages[1]["content"] == "I will delete it."
    assert messages[1]["approval"]["id"] == last["approval_id"]
    assert messages[1]["approval"]["status"] == "pending"


async def test_an_approved_call_runs_and_the_answer_goes_on(
    client: httpx.AsyncClient,
    alice: Account,
    replies: Replies,
    deleted: list[int],
    model: FunctionModel,
) -> None:
    replies.append(["I will delete it.", tool_call("delete_report", {"id": 7})])
    replies.append(["Done: report 7 is gone."])
    paused = (await _ask(client, alice, "Delete report 7"))[-1].event

    response = await _decide(client, alice, paused["approval_id"], {"decision": "approved"})

    assert response.status_code == 200
    assert response.json()["approval"]["status"] == "approved"
    frames = await _follow(client, alice, response.json()["run_id"])
    assert deleted == [7]
    assert [f.type for f in frames][:2] == ["text_delta", "approval_resolved"]
    complete = frames[-1].event
    assert complete["type"] == "complete"
    assert complete["payload"]["message"] == "I will delete it.[[tool:0]]Done: report 7 is gone."
    entry = complete["payload"]["tool_history"][0]
    assert entry["output"] == "Deleted report 7."
    assert entry["approval"]["status"] == "approved"
    assert _tool_results(model.requests[-1]) == [("Deleted report 7.", False)]
    stored = (await _messages(client, alice, paused["conversation_id"]))[1]
    assert stored["status"] == "complete"
    assert stored["content"] == complete["payload"]["message"]
    assert stored["approval"] is None


async def test_a_denied_call_does_not_run_and_the_model_hears_why(
    client: httpx.AsyncClient,
    alice: Account,
    replies: Replies,
    deleted: list[int],
    model: FunctionModel,
) -> None:
    replies.append([tool_call("delete_report", {"id": 7})])
    replies.append(["Understood, I kept report 7."])
    paused = (await _ask(client, alice, "Delete report 7"))[-1].event

    response = await _decide(
        client, alice, paused["approval_id"], {"decision": "denied", "note": "I still need it"}
    )

    frames = await _follow(client, alice, response.json()["run_id"])
    assert deleted == []
    [(told, is_error)] = _tool_results(model.requests[-1])
    assert is_error
    assert "did not approve" in told
    assert "I still need it" in told
    complete = frames[-1].event["payload"]
    assert complete["message"].endswith("Understood, I kept report 7.")
    assert complete["tool_history"][0]["approval"]["status"] == "denied"
    assert complete["tool_history"][0]["approval"]["note"] == "I still need it"


async def test_a_second_decision_is_a_conflict_and_another_users_is_not_found(
    client: httpx.AsyncClient, alice: Account, bob: Account, replies: Replies
) -> None:
    replies.append([tool_call("delete_report", {"id": 7})])
    paused = (await _ask(client, alice, "Delete report 7"))[-1].event

    other = await _decide(client, bob, paused["approval_id"], {"decision": "approved"})
    first = await _decide(client, alice, paused["approval_id"], {"decision": "denied"})
    await _follow(client, alice, first.json()["run_id"])
    second = await _decide(client, alice, paused["approval_id"], {"decision": "approved"})

    assert other.status_code == 404
    assert first.status_code == 200
    assert second.status_code == 409
    assert "decided" in second.json()["detail"]


async def test_a_bad_decision_body_is_422(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append([tool_call("delete_report", {"id": 7})])
    paused = (await _ask(client, alice, "Delete report 7"))[-1].event

    response = await _decide(client, alice, paused["approval_id"], {"decision": "maybe"})

    assert response.status_code == 422


async def test_a_new_message_waits_for_the_decision(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append([tool_call("delete_report", {"id": 7})])
    paused = (await _ask(client, alice, "Delete report 7"))[-1].event

    response = await client.post(
        "/api/chat/stream",
        json={"message": "and another thing", "conversation_id": paused["conversation_id"]},
        headers=alice.headers,
    )

    assert response.status_code == 409
    assert "pending" in response.json()["detail"]


async def test_approval_can_depend_on_the_arguments(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append([tool_call("search", {"online": False})])
    replies.append(["Found 3."])
    local = await _ask(client, alice, "Search the library")
    replies.append([tool_call("search", {"online": True})])
    online = await _ask(client, alice, "Search PubMed")

    assert local[-1].type == "complete"
    assert online[-1].event["type"] == "approval_requested"
    assert online[-1].event["reason"] == "Searches PubMed online."


async def test_an_undecided_request_lapses_and_counts_as_denied(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
    alice: Account,
    replies: Replies,
    deleted: list[int],
) -> None:
    app = _app(sessions, authenticator, model, config=ChatConfig(approval_timeout_seconds=0))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        replies.append([tool_call("delete_report", {"id": 7})])
        replies.append(["Nobody answered, so I left it."])
        paused = (await _ask(client, alice, "Delete report 7"))[-1].event
        chat = app.state.chat

        [lapsed] = await chat.approvals.expire_due(chat.resume_turn, chat._load_user)

        frames = await _follow(client, alice, lapsed.id)
        assert frames[-1].event["payload"]["tool_history"][0]["approval"]["status"] == "expired"
        [(told, is_error)] = _tool_results(model.requests[-1])
        assert is_error and "in time" in told
        late = await _decide(client, alice, paused["approval_id"], {"decision": "approved"})
        assert late.status_code == 409
    assert deleted == []


async def test_the_decision_resumes_the_turn_after_a_server_restart(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    alice: Account,
    deleted: list[int],
) -> None:
    before = FunctionModel(lambda _r: [tool_call("delete_report", {"id": 7})])
    first = _app(sessions, authenticator, before)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=first), base_url="http://testserver"
    ) as client:
        paused = (await _ask(client, alice, "Delete report 7"))[-1].event
    await first.state.runs.shutdown()

    # A new process: nothing in memory, only the database.
    after = FunctionModel(lambda _r: "Deleted, as you approved.")
    second = _app(sessions, authenticator, after)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=second), base_url="http://testserver"
    ) as client:
        reloaded = (await _messages(client, alice, paused["conversation_id"]))[1]
        assert reloaded["approval"]["id"] == paused["approval_id"]
        response = await _decide(client, alice, paused["approval_id"], {"decision": "approved"})
        frames = await _follow(client, alice, response.json()["run_id"])

    assert deleted == [7]
    assert frames[-1].event["payload"]["message"] == "[[tool:0]]Deleted, as you approved."
    # The resumed model call carries the conversation as the first process built it.
    assert after.requests[0].messages[0].text.endswith("Delete report 7")  # type: ignore[union-attr]


async def test_another_worker_takes_the_decision_and_both_follow_the_turn(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
    alice: Account,
    replies: Replies,
    redis_url: str,
    deleted: list[int],
) -> None:
    runs_a = RedisRunManager(Redis.from_url(redis_url))
    runs_b = RedisRunManager(Redis.from_url(redis_url))
    await runs_a.open()
    await runs_b.open()
    a = _app(sessions, authenticator, model, runs=runs_a)
    b = _app(sessions, authenticator, model, runs=runs_b)
    try:
        async with (
            httpx.AsyncClient(transport=httpx.ASGITransport(app=a), base_url="http://a") as on_a,
            httpx.AsyncClient(transport=httpx.ASGITransport(app=b), base_url="http://b") as on_b,
        ):
            replies.append(["Deleting.", tool_call("delete_report", {"id": 7})])
            replies.append(["Done."])
            paused = (await _ask(on_a, alice, "Delete report 7"))[-1].event
            assert (await _messages(on_b, alice, paused["conversation_id"]))[1]["approval"]

            response = await _decide(on_b, alice, paused["approval_id"], {"decision": "approved"})
            run_id = response.json()["run_id"]
            seen_on_b = await _follow(on_b, alice, run_id)
            seen_on_a = await _follow(on_a, alice, run_id)
    finally:
        await runs_a.shutdown()
        await runs_b.shutdown()

    assert deleted == [7]
    assert seen_on_a == seen_on_b
    assert seen_on_a[-1].event["payload"]["message"] == "Deleting.[[tool:0]]Done."


async def test_tokens_spent_after_an_approval_count_against_the_daily_quota(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
    alice: Account,
    replies: Replies,
) -> None:
    quotas = MemoryQuotas(QuotaSettings(user=QuotaPolicy(tokens_per_day=100_000)))
    app = _app(sessions, authenticator, model, quotas=quotas)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as client:
        replies.append([tool_call("delete_report", {"id": 7})])
        # After the approval the model spends more than the whole day's share.
        replies.append(
            ["Done.", ModelFinish(stop_reason="end_turn", usage=TokenUsage(1_000, 200_000))]
        )
        paused = (await _ask(client, alice, "Delete report 7"))[-1].event
        response = await _decide(client, alice, paused["approval_id"], {"decision": "approved"})
        assert (await _follow(client, alice, response.json()["run_id"]))[-1].type == "complete"

        after = await client.post(
            "/api/chat/stream",
            json={"message": "And report 8?", "conversation_id": paused["conversation_id"]},
            headers=alice.headers,
        )
    assert after.status_code == 429
    assert after.json()["quota"] == "tokens_per_day"


async def test_payloads_written_before_an_approval_pause_end_the_resumed_answer(
    client: httpx.AsyncClient,
    alice: Account,
    replies: Replies,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pagechat.pages.registry, "_PAGES", {})
    register_page(
        "reports",
        payloads=[
            PayloadConfig(type="note", parse_marker="NOTE:", llm_instructions="Leave a note.")
        ],
    )
    replies.append(
        [
            'Before I delete it: NOTE: {"keep": "a copy"}\n',
            'SUGGESTED_VALUES: ["Undo"]\n',
            tool_call("delete_report", {"id": 7}),
        ]
    )
    replies.append(['Deleted. NOTE: {"deleted": 7}'])
    paused = (await _ask(client, alice, "Delete report 7", {"current_page": "reports"}))[-1]

    response = await _decide(client, alice, paused.event["approval_id"], {"decision": "approved"})
    frames = await _follow(client, alice, response.json()["run_id"])

    payload = frames[-1].event["payload"]
    assert [p["data"] for p in payload["payloads"]] == [{"keep": "a copy"}, {"deleted": 7}]
    assert payload["custom_payload"] == {"type": "note", "data": {"keep": "a copy"}}
    assert [v["value"] for v in payload["suggested_values"]] == ["Undo"]
    assert "NOTE" not in payload["message"] and "SUGGESTED" not in payload["message"]
    stored = (await _messages(client, alice, paused.event["conversation_id"]))[1]
    assert stored["payloads"] == payload["payloads"]


async def _saved_state(sessions: async_sessionmaker[AsyncSession], approval_id: str) -> Any:
    async with sessions() as session:
        row = await session.get(Approval, approval_id)
        assert row is not None
        return row.state


async def test_the_paused_turn_keeps_where_each_card_stands_and_replays_it(
    client: httpx.AsyncClient,
    alice: Account,
    replies: Replies,
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    replies.append(["Searching.", tool_call("search", {"online": False})])
    replies.append(["Found them.", tool_call("delete_report", {"id": 7})])
    replies.append(["Deleted."])
    paused = (await _ask(client, alice, "Find and delete report 7"))[-1].event

    saved = SavedTurn.from_json(await _saved_state(sessions, paused["approval_id"]))
    response = await _decide(client, alice, paused["approval_id"], {"decision": "approved"})
    frames = await _follow(client, alice, response.json()["run_id"])

    assert saved.content == "Searching.[[tool:0]]Found them."
    assert saved.cards == (ToolCard(index=0, at=len("Searching.")),)
    replayed = [(f.type, f.event.get("text", f.event.get("index"))) for f in frames[:6]]
    assert replayed == [
        ("text_delta", "Searching."),
        ("tool_start", None),
        ("tool_complete", 0),
        ("text_delta", "[[tool:0]]"),
        ("text_delta", "Found them."),
        ("approval_resolved", None),
    ]
    message = frames[-1].event["payload"]["message"]
    assert message == "Searching.[[tool:0]]Found them.[[tool:1]]Deleted."


async def test_a_request_stored_before_cards_were_kept_resumes_as_before(
    client: httpx.AsyncClient,
    alice: Account,
    replies: Replies,
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    replies.append(["Searching.", tool_call("search", {"online": False})])
    replies.append(["Found them.", tool_call("delete_report", {"id": 7})])
    replies.append(["Deleted."])
    paused = (await _ask(client, alice, "Find and delete report 7"))[-1].event
    async with sessions.begin() as session:
        row = await session.get(Approval, paused["approval_id"])
        assert row is not None
        row.state = {k: v for k, v in row.state.items() if k != "cards"}  # as stored before

    response = await _decide(client, alice, paused["approval_id"], {"decision": "approved"})
    frames = await _follow(client, alice, response.json()["run_id"])

    assert [f.type for f in frames[:6]] == [
        "text_delta",
        "tool_start",
        "tool_complete",
        "text_delta",
        "text_delta",
        "approval_resolved",
    ]
    message = frames[-1].event["payload"]["message"]
    assert message == "Searching.[[tool:0]]Found them.[[tool:1]]Deleted."
