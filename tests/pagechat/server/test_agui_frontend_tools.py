"""AG-UI frontend tools: the client's tools are offered to the model, a call is handed back
to the client, and its result (a `tool` message in the next run) resumes the same turn —
from the database, so a restart or another worker changes nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from ag_ui.core import Event
from fastapi import FastAPI
from pydantic import TypeAdapter
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import JwtAuthenticator
from pagechat.chat import ChatConfig
from pagechat.models import FunctionModel, ScriptItem, tool_call
from pagechat.models.base import ModelRequest, ToolResultsTurn
from pagechat.pages import clear_pages, register_page
from pagechat.server import create_app
from pagechat.store import SqlChatStore
from pagechat.testing import read_all
from pagechat.tools import ToolConfig, clear_tools, register_tool
from tests.conftest import Account

_EVENT: TypeAdapter[Any] = TypeAdapter(Event)
Replies = list[list[ScriptItem]]

READ_FIELD = {
    "name": "read_field",
    "description": "Read a field of the form on the user's screen.",
    "parameters": {
        "type": "object",
        "properties": {"field": {"type": "string", "enum": ["title", "owner"]}},
        "required": ["field"],
    },
}


@pytest.fixture(autouse=True)
def _page() -> Iterator[None]:
    clear_tools()
    clear_pages()
    register_page("ledger")
    yield
    clear_tools()
    clear_pages()


def _app(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
    config: ChatConfig | None = None,
) -> FastAPI:
    return create_app(
        model=model,
        store=SqlChatStore(sessions),
        authenticator=authenticator,
        sessions=sessions,
        config=config,
    )


@pytest.fixture
async def client(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
) -> AsyncIterator[httpx.AsyncClient]:
    app = _app(sessions, authenticator, model)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


def _body(
    messages: list[dict[str, Any]],
    *,
    tools: list[dict[str, Any]] | None = None,
    thread: str = "thread-1",
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "threadId": thread,
        "runId": "client-run",
        "state": state or {},
        "messages": messages,
        "tools": [READ_FIELD] if tools is None else tools,
        "context": [],
        "forwardedProps": {},
    }


ASK = {"id": "u1", "role": "user", "content": "What is the form's title?"}
CALLED = {
    "id": "a1",
    "role": "assistant",
    "content": "Let me look.",
    "toolCalls": [
        {
            "id": "fe-1",
            "type": "function",
            "function": {"name": "read_field", "arguments": '{"field": "title"}'},
        }
    ],
}


def _result(content: str = "Apollo", call: str = "fe-1", **extra: Any) -> dict[str, Any]:
    return {"id": f"t-{call}", "role": "tool", "toolCallId": call, "content": content, **extra}


async def _run(
    client: httpx.AsyncClient, who: Account, body: dict[str, Any]
) -> list[dict[str, Any]]:
    response = await client.post("/api/agui/ledger", json=body, headers=who.headers)
    assert response.status_code == 200, response.text
    events = [
        json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")
    ]
    for event in events:
        _EVENT.validate_python(event)
    return events


def _types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def _text(events: list[dict[str, Any]]) -> str:
    return "".join(e["delta"] for e in events if e["type"] == "TEXT_MESSAGE_CONTENT")


def _tool_results(request: ModelRequest) -> list[tuple[str, bool]]:
    return [
        (r.content, r.is_error)
        for m in request.messages
        if isinstance(m, ToolResultsTurn)
        for r in m.results
    ]


async def _answer(client: httpx.AsyncClient, who: Account, conversation_id: str) -> dict[str, Any]:
    response = await client.get(f"/api/conversations/{conversation_id}", headers=who.headers)
    assert response.status_code == 200
    answer: dict[str, Any] = response.json()["messages"][-1]
    return answer


async def test_a_frontend_tool_call_goes_to_the_client_and_its_result_resumes_the_turn(
    client: httpx.AsyncClient, alice: Account, model: FunctionModel, replies: Replies
) -> None:
    replies.append(["Let me look.", tool_call("read_field", {"field": "title"}, id="fe-1")])
    replies.append(["The title is Apollo."])

    first = await _run(client, alice, _body([ASK]))

    assert _types(first) == [
        "RUN_STARTED",
        "STATE_SNAPSHOT",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "RUN_FINISHED",
    ]
    start, args = first[5], first[6]
    assert (start["toolCallId"], start["toolCallName"]) == ("fe-1", "read_field")
    assert start["parentMessageId"] == first[2]["messageId"]
    assert json.loads(args["delta"]) == {"field": "title"}
    assert first[-1]["result"]["waiting_for_tool_call"] == "fe-1"
    (offered,) = [t for t in model.requests[0].tools if t.name == "read_field"]
    assert offered.input_schema == READ_FIELD["parameters"]

    second = await _run(client, alice, _body([ASK, CALLED, _result("Apollo")]))

    # The client has the text before the call and the call itself: they are not sent again.
    assert _types(second) == [
        "RUN_STARTED",
        "STATE_SNAPSHOT",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "RUN_FINISHED",
    ]
    assert _text(second) == "The title is Apollo."
    assert _tool_results(model.requests[-1]) == [("Apollo", False)]
    answer = await _answer(client, alice, second[-1]["result"]["conversation_id"])
    assert answer["status"] == "complete"
    assert answer["content"] == "Let me look.[[tool:0]]The title is Apollo."
    assert answer["tool_history"][0]["output"] == "Apollo"


async def test_a_frontend_call_with_bad_arguments_is_refused_to_the_model_not_sent(
    client: httpx.AsyncClient, alice: Account, model: FunctionModel, replies: Replies
) -> None:
    replies.append([tool_call("read_field", {"field": "password"}, id="fe-1")])
    replies.append(["I cannot read that field."])

    events = await _run(client, alice, _body([ASK]))

    assert "TOOL_CALL_RESULT" in _types(events)
    assert _types(events)[-1] == "RUN_FINISHED" and "waiting_for_tool_call" not in str(events)
    [(told, is_error)] = _tool_results(model.requests[-1])
    assert is_error and "password" in told


async def test_a_client_error_reaches_the_model_as_a_tool_error(
    client: httpx.AsyncClient, alice: Account, model: FunctionModel, replies: Replies
) -> None:
    replies.append([tool_call("read_field", {"field": "title"}, id="fe-1")])
    replies.append(["The page could not say."])
    await _run(client, alice, _body([ASK]))

    await _run(client, alice, _body([ASK, CALLED, _result("", error="The form is closed")]))

    assert _tool_results(model.requests[-1]) == [("The form is closed", True)]


@pytest.mark.parametrize(
    ("tool", "says"),
    [
        ({**READ_FIELD, "name": "search"}, "name of a server tool"),
        ({**READ_FIELD, "name": "read field!"}, "must be 1-64 letters"),
        ({**READ_FIELD, "parameters": {"type": "object", "properties": 3}}, "not valid JSON"),
        ({**READ_FIELD, "parameters": {"type": "string"}}, "must take an object"),
    ],
)
async def test_a_frontend_tool_that_is_not_usable_is_422_before_anything_is_stored(
    client: httpx.AsyncClient, alice: Account, tool: dict[str, Any], says: str
) -> None:
    register_tool(
        ToolConfig(
            name="search",
            description="Search",
            input_schema={"type": "object"},
            executor=lambda p, c: "found",
        )
    )

    response = await client.post(
        "/api/agui/ledger", json=_body([ASK], tools=[tool]), headers=alice.headers
    )

    assert response.status_code == 422
    assert says in response.json()["detail"]
    listed = await client.get("/api/conversations", headers=alice.headers)
    assert listed.json()["items"] == []


async def test_a_start_prepares_the_turn_once(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    built: list[dict[str, Any]] = []

    def context(state: dict[str, Any]) -> str:
        built.append(state)  # once for each time the turn is prepared
        return "A form"

    register_page("ledger", context_builder=context)
    replies.append(["Hello."])

    events = await _run(client, alice, _body([ASK]))

    assert _text(events) == "Hello."
    assert len(built) == 1


async def test_the_same_frontend_tool_twice_is_422(
    client: httpx.AsyncClient, alice: Account
) -> None:
    response = await client.post(
        "/api/agui/ledger", json=_body([ASK], tools=[READ_FIELD, READ_FIELD]), headers=alice.headers
    )
    assert response.status_code == 422
    assert response.json()["detail"] == "Frontend tool 'read_field' is declared twice"


async def test_a_result_for_an_unknown_or_another_users_call_is_404(
    client: httpx.AsyncClient, alice: Account, bob: Account, replies: Replies
) -> None:
    replies.append([tool_call("read_field", {"field": "title"}, id="fe-1")])
    await _run(client, alice, _body([ASK]))

    unknown = await client.post(
        "/api/agui/ledger", json=_body([ASK, _result(call="fe-9")]), headers=alice.headers
    )
    assert unknown.status_code == 404
    assert unknown.json() == {
        "detail": "No tool call 'fe-9' waits for a result in this thread",
        "waiting_for": "fe-1",
    }
    # Bob's thread of the same id is his own conversation: Alice's call is not in it.
    bobs = await client.post(
        "/api/agui/ledger", json=_body([ASK, CALLED, _result()]), headers=bob.headers
    )
    assert bobs.status_code == 404 and bobs.json()["waiting_for"] is None


async def test_a_result_sent_twice_is_refused_the_second_time(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append([tool_call("read_field", {"field": "title"}, id="fe-1")])
    replies.append(["Apollo it is."])
    await _run(client, alice, _body([ASK]))
    await _run(client, alice, _body([ASK, CALLED, _result()]))

    again = await client.post(
        "/api/agui/ledger", json=_body([ASK, CALLED, _result()]), headers=alice.headers
    )

    assert again.status_code == 404
    assert again.json()["waiting_for"] is None


async def test_a_new_user_message_while_a_call_waits_is_409_naming_the_call(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append([tool_call("read_field", {"field": "title"}, id="fe-1")])
    await _run(client, alice, _body([ASK]))

    response = await client.post(
        "/api/agui/ledger",
        json=_body([ASK, CALLED, {"id": "u2", "role": "user", "content": "Never mind"}]),
        headers=alice.headers,
    )

    assert response.status_code == 409
    assert "'fe-1'" in response.json()["detail"]


async def test_a_result_that_never_comes_lapses_and_the_model_is_told(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
    alice: Account,
    replies: Replies,
) -> None:
    app = _app(sessions, authenticator, model, ChatConfig(approval_timeout_seconds=0))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        replies.append([tool_call("read_field", {"field": "title"}, id="fe-1")])
        replies.append(["The page did not answer."])
        first = await _run(client, alice, _body([ASK]))
        chat = app.state.chat

        [lapsed] = await chat.approvals.expire_due(chat.resume_turn, chat._load_user)
        async with client.stream(
            "GET", f"/api/chat/runs/{lapsed.id}/events", headers=alice.headers
        ) as followed:
            frames = await read_all(followed)
        assert frames[-1].event["type"] == "complete"

        [(told, is_error)] = _tool_results(model.requests[-1])
        assert is_error and "did not return a result of read_field in time" in told
        answer = await _answer(client, alice, first[-1]["result"]["conversation_id"])
        assert answer["status"] == "complete" and answer["content"].endswith("did not answer.")
        late = await client.post(
            "/api/agui/ledger", json=_body([ASK, CALLED, _result()]), headers=alice.headers
        )
        assert late.status_code == 404


async def test_the_result_resumes_the_turn_after_a_server_restart(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, alice: Account
) -> None:
    before = FunctionModel(lambda _r: [tool_call("read_field", {"field": "title"}, id="fe-1")])
    first = _app(sessions, authenticator, before)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=first), base_url="http://testserver"
    ) as client:
        await _run(client, alice, _body([ASK]))
    await first.state.runs.shutdown()

    # A new process: nothing in memory, only the database.
    after = FunctionModel(lambda _r: "It is Apollo.")
    second = _app(sessions, authenticator, after)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=second), base_url="http://testserver"
    ) as client:
        events = await _run(client, alice, _body([ASK, CALLED, _result()]))

    assert _text(events) == "It is Apollo."
    assert _tool_results(after.requests[0]) == [("Apollo", False)]
    assert any(t.name == "read_field" for t in after.requests[0].tools)


async def test_the_approval_route_cannot_answer_a_frontend_call(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append([tool_call("read_field", {"field": "title"}, id="fe-1")])
    first = await _run(client, alice, _body([ASK]))
    answer = await _answer(client, alice, first[-1]["result"]["conversation_id"])
    approval_id = answer["approval"]["id"]

    response = await client.post(
        f"/api/chat/approvals/{approval_id}", json={"decision": "approved"}, headers=alice.headers
    )

    assert response.status_code == 404


async def test_a_call_that_needs_approval_is_a_custom_event_and_an_interrupt(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    register_tool(
        ToolConfig(
            name="close_ledger",
            description="Close the ledger for the year.",
            input_schema={
                "type": "object",
                "properties": {"year": {"type": "integer"}},
                "required": ["year"],
            },
            executor=lambda params, _ctx: f"closed {params['year']}",
            requires_approval=True,
            approval_reason="Closing a ledger cannot be undone.",
        )
    )
    replies.append(["Closing it.", tool_call("close_ledger", {"year": 2025}, id="c-1")])

    events = await _run(client, alice, _body([ASK], tools=[]))

    assert _types(events)[-2:] == ["CUSTOM", "RUN_FINISHED"]
    custom, finished = events[-2], events[-1]
    assert custom["name"] == "pagechat.approval_requested"
    request = custom["value"]
    assert (request["tool"], request["input"], request["tool_use_id"]) == (
        "close_ledger",
        {"year": 2025},
        "c-1",
    )
    assert request["reason"] == "Closing a ledger cannot be undone."
    (interrupt,) = finished["outcome"]["interrupts"]
    assert interrupt["id"] == request["approval_id"]
    assert interrupt["reason"] == "tool_approval"
    # The decision goes to pagechat's own route, as the custom event's id says.
    decided = await client.post(
        f"/api/chat/approvals/{request['approval_id']}",
        json={"decision": "denied", "note": "not this year"},
        headers=alice.headers,
    )
    assert decided.status_code == 200, decided.text
