"""`POST /api/ai-sdk/{page}`: a `useChat` app's requests answered with pagechat's runs, each
stream read by the AI SDK's own reader (Node, the pinned `ai` package): every chunk valid
by the SDK's schema, folded into the UI message a `useChat` app would show."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import JwtAuthenticator
from pagechat.models import FunctionModel, ScriptItem, tool_call
from pagechat.pages import PayloadConfig, clear_pages, register_page
from pagechat.server import create_app
from pagechat.store import SqlChatStore
from pagechat.tools import (
    ToolConfig,
    ToolContext,
    ToolProgress,
    ToolResult,
    clear_tools,
    register_tool,
)
from tests.conftest import Account
from tests.support.ai_sdk import UiRead, read_ui_stream

Replies = list[list[ScriptItem]]
QUERY = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
READ_FIELD = {
    "name": "read_field",
    "description": "Read a field of the form on the user's screen.",
    "parameters": {
        "type": "object",
        "properties": {"field": {"type": "string"}},
        "required": ["field"],
    },
}


@pytest.fixture(autouse=True)
def _page() -> Iterator[None]:
    clear_tools()
    clear_pages()
    register_page(
        "ledger",
        payloads=[
            PayloadConfig(
                type="entry_proposal",
                parse_marker="ENTRY_PROPOSAL:",
                llm_instructions="Propose an entry as ENTRY_PROPOSAL: {json}.",
                schema={"type": "object"},
            )
        ],
    )
    yield
    clear_tools()
    clear_pages()


@pytest.fixture
def app(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
) -> FastAPI:
    return create_app(
        model=model, store=SqlChatStore(sessions), authenticator=authenticator, sessions=sessions
    )


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


def _user(text: str, id: str = "u1") -> dict[str, Any]:
    return {"id": id, "role": "user", "parts": [{"type": "text", "text": text}]}


def _body(messages: list[dict[str, Any]], chat: str = "chat-1", **extra: Any) -> dict[str, Any]:
    return {"id": chat, "messages": messages, "trigger": "submit-message", **extra}


async def _post(
    client: httpx.AsyncClient,
    who: Account,
    body: dict[str, Any],
    message: dict[str, Any] | None = None,
) -> UiRead:
    response = await client.post("/api/ai-sdk/ledger", json=body, headers=who.headers)
    assert response.status_code == 200, response.text
    assert response.headers["x-vercel-ai-ui-message-stream"] == "v1"
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.text.endswith("data: [DONE]\n\n")
    read = read_ui_stream(response.text, message)
    assert read.error is None, read.error
    return read


def _told(read: UiRead) -> list[str]:
    """The chunk types but the transient status lines."""
    return [t for t in read.types if t != "data-pagechat-status"]


async def _stored(client: httpx.AsyncClient, who: Account, chat: str) -> list[dict[str, Any]]:
    response = await client.get(f"/api/conversations/{chat}", headers=who.headers)
    assert response.status_code == 200, response.text
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


async def test_a_text_answer_is_one_text_part_of_the_stored_answer(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append(["Hello", " there."])
    read = await _post(client, alice, _body([_user("hi")]))

    assert read.types[2] == "data-pagechat-status"  # transient: onData, not a part
    assert read.parts("data-pagechat-status") == []
    assert _told(read) == [
        "start",
        "start-step",
        "text-start",
        "text-delta",
        "text-delta",
        "text-end",
        "finish-step",
        "finish",
    ]
    assert read.message is not None
    assert [p["text"] for p in read.parts("text")] == ["Hello there."]
    stored = await _stored(client, alice, "chat-1")
    assert [m["content"] for m in stored] == ["hi", "Hello there."]
    # The chat id is the conversation; the message is pagechat's answer, by its id.
    assert read.message["id"] == stored[-1]["id"]
    metadata = read.message["metadata"]
    assert metadata["conversation_id"] == "chat-1"
    assert metadata["message_id"] == stored[-1]["id"]
    assert metadata["stop_reason"] == "end_turn"
    assert set(metadata["usage"]) == {
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
    }
    assert read.chunks[-1]["finishReason"] == "stop"


async def test_a_tool_call_streams_its_input_progress_and_output(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    async def search(params: dict[str, Any], _ctx: ToolContext) -> AsyncIterator[Any]:
        yield ToolProgress(stage="searching", message="Looking", progress=0.5)
        yield ToolResult(f"found {params['q']}")

    register_tool(
        ToolConfig(name="search", description="Search", input_schema=QUERY, executor=search)
    )
    replies.extend(
        [["Let me look.", tool_call("search", {"q": "CRISPR"}, id="call-7")], ["Found it."]]
    )
    read = await _post(client, alice, _body([_user("search please")]))

    assert _told(read)[:9] == [
        "start",
        "start-step",
        "text-start",
        "text-delta",
        "text-end",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "data-pagechat-progress",
    ]
    assert "tool-output-available" in read.types
    (tool,) = read.parts("tool-search")
    assert tool["toolCallId"] == "call-7"
    assert tool["state"] == "output-available"
    assert tool["input"] == {"q": "CRISPR"}
    assert tool["output"] == "found CRISPR"
    (progress,) = read.parts("data-pagechat-progress")
    assert progress["id"] == "call-7"
    assert progress["data"] == {
        "tool_call_id": "call-7",
        "tool": "search",
        "stage": "searching",
        "message": "Looking",
        "progress": 0.5,
    }
    # The [[tool:0]] marker is left out: the tool part stands in its place.
    assert [p["text"] for p in read.parts("text")] == ["Let me look.", "Found it."]


async def test_a_failed_tool_is_a_tool_output_error(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    def broken(_params: dict[str, Any], _ctx: ToolContext) -> str:
        raise RuntimeError("the archive is offline")

    register_tool(
        ToolConfig(name="archive", description="Archive", input_schema=QUERY, executor=broken)
    )
    replies.extend([[tool_call("archive", {"q": "x"}, id="call-1")], ["Sorry."]])
    read = await _post(client, alice, _body([_user("archive it")]))

    assert "tool-output-error" in read.types
    (tool,) = read.parts("tool-archive")
    assert tool["state"] == "output-error"
    assert tool["errorText"]


async def test_payloads_suggestions_and_choices_are_typed_data_parts(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    choices = {
        "question": "Which year?",
        "options": [{"label": "2025", "value": "2025"}, {"label": "2026", "value": "2026"}],
    }
    values = [{"label": "Yes", "value": "yes please"}]
    replies.append(
        [
            "Here it is.\n\nENTRY_PROPOSAL: ",
            json.dumps({"amount": 12}),
            f"\n```choices\n{json.dumps(choices)}\n```\n",
            f"SUGGESTED_VALUES: {json.dumps(values)}",
        ]
    )
    read = await _post(client, alice, _body([_user("propose")]))

    (payload,) = read.parts("data-pagechat-payload")
    assert payload["data"] == {"type": "entry_proposal", "data": {"amount": 12}}
    (chips,) = read.parts("data-pagechat-suggested-values")
    assert chips["data"] == {"values": values}
    (block,) = read.parts("data-pagechat-choices")
    assert block["data"] == choices


async def test_a_model_failure_is_an_error_part(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    from pagechat.models.errors import ModelOutputError

    replies.append(["Starting", ModelOutputError("the model broke down")])
    response = await client.post(
        "/api/ai-sdk/ledger", json=_body([_user("go")]), headers=alice.headers
    )
    read = read_ui_stream(response.text)
    assert read.types[-1] == "error"
    assert "the model broke down" in read.chunks[-1]["errorText"]
    assert read.error is not None  # the SDK's reader throws the stream's error, as useChat shows it


def _closing_tool() -> None:
    register_tool(
        ToolConfig(
            name="close_year",
            description="Close the ledger for a year.",
            input_schema={
                "type": "object",
                "properties": {"year": {"type": "integer"}},
                "required": ["year"],
            },
            executor=lambda params, _ctx: f"closed {params['year']}",
            requires_approval=True,
            approval_reason="Closing a year cannot be undone.",
        )
    )


def _responded(message: dict[str, Any], *, approved: bool, reason: str | None = None) -> None:
    """What `addToolApprovalResponse` does to the message."""
    for part in message["parts"]:
        if part.get("state") == "approval-requested":
            part["state"] = "approval-responded"
            part["approval"] = {**part["approval"], "approved": approved}
            if reason is not None:
                part["approval"]["reason"] = reason


@pytest.mark.parametrize("approved", [True, False])
async def test_an_approval_is_the_sdks_request_and_its_response_resumes_the_turn(
    client: httpx.AsyncClient, alice: Account, replies: Replies, approved: bool
) -> None:
    _closing_tool()
    replies.append(["Closing it.", tool_call("close_year", {"year": 2025}, id="c-1")])
    first = await _post(client, alice, _body([_user("close 2025")]))

    assert first.types[-5:] == [
        "tool-input-delta",
        "tool-input-available",
        "tool-approval-request",
        "finish-step",
        "finish",
    ]
    assert first.chunks[-1]["finishReason"] == "tool-calls"
    assert first.message is not None
    (tool,) = first.parts("tool-close_year")
    assert tool["state"] == "approval-requested"
    assert tool["approval"]["requestReason"] == "Closing a year cannot be undone."
    (waiting,) = [m for m in await _stored(client, alice, "chat-1") if m["role"] == "assistant"]
    assert waiting["status"] == "needs_approval"
    assert waiting["approval"]["id"] == tool["approval"]["id"]

    message = json.loads(json.dumps(first.message))
    _responded(message, approved=approved, reason=None if approved else "not this year")
    replies.append(["Done." if approved else "Kept it open."])
    second = await _post(client, alice, _body([_user("close 2025"), message]), message)

    assert second.message is not None
    (tool,) = second.parts("tool-close_year")
    if approved:
        assert tool["state"] == "output-available" and tool["output"] == "closed 2025"
    else:
        assert tool["state"] == "output-denied"
        assert "tool-output-error" not in second.types
    # The answer so far is not told again: one text part each side of the call.
    texts = [p["text"] for p in second.parts("text")]
    assert texts == ["Closing it.", "Done." if approved else "Kept it open."]
    stored = await _stored(client, alice, "chat-1")
    assert stored[-1]["status"] == "complete"
    assert stored[-1]["tool_history"][0]["approval"]["status"] == (
        "approved" if approved else "denied"
    )

    again = await client.post(
        "/api/ai-sdk/ledger", json=_body([_user("close 2025"), message]), headers=alice.headers
    )
    assert again.status_code == 409


async def test_a_client_tool_goes_to_on_tool_call_and_its_output_resumes_the_turn(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.append(["Asking the page.", tool_call("read_field", {"field": "title"}, id="fe-1")])
    first = await _post(client, alice, _body([_user("the title?")], tools=[READ_FIELD]))

    assert first.types[-3:] == ["tool-input-available", "finish-step", "finish"]
    assert "tool-approval-request" not in first.types
    assert first.message is not None
    (tool,) = first.parts("tool-read_field")
    assert tool["state"] == "input-available" and tool["input"] == {"field": "title"}

    # What addToolOutput does; sendAutomaticallyWhen then sends the messages again.
    message = json.loads(json.dumps(first.message))
    message["parts"] = [
        {**p, "state": "output-available", "output": "Apollo"} if p.get("toolCallId") else p
        for p in message["parts"]
    ]
    replies.append(["The title is Apollo."])
    second = await _post(
        client, alice, _body([_user("the title?"), message], tools=[READ_FIELD]), message
    )

    assert "tool-input-start" not in second.types  # the client has the call and its output
    texts = [p["text"] for p in second.parts("text")]
    assert texts == ["Asking the page.", "The title is Apollo."]
    stored = await _stored(client, alice, "chat-1")
    assert stored[-1]["status"] == "complete"
    assert stored[-1]["tool_history"][0]["output"] == "Apollo"


async def test_regenerate_is_a_new_answer_beside_the_old_one(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    replies.extend([["First."], ["Second."]])
    first = await _post(client, alice, _body([_user("hi")]))
    assert first.message is not None

    regenerate = {"trigger": "regenerate-message", "messageId": first.message["id"]}
    body = {**_body([_user("hi")]), **regenerate}
    second = await _post(client, alice, body)

    assert [p["text"] for p in second.parts("text")] == ["Second."]
    stored = await _stored(client, alice, "chat-1")
    assert stored[-1]["content"] == "Second."
    assert (stored[-1]["sibling_count"], stored[-1]["sibling_position"]) == (2, 2)
    assert second.message is not None and second.message["id"] == stored[-1]["id"]


async def test_no_session_is_401_another_users_chat_404_and_an_unknown_page_400(
    client: httpx.AsyncClient, alice: Account, bob: Account, replies: Replies
) -> None:
    replies.append(["Mine."])
    await _post(client, alice, _body([_user("hi")], chat="alices"))

    no_session = await client.post("/api/ai-sdk/ledger", json=_body([_user("hi")]))
    assert no_session.status_code == 401
    theirs = await client.post(
        "/api/ai-sdk/ledger", json=_body([_user("hi")], chat="alices"), headers=bob.headers
    )
    assert theirs.status_code == 404
    assert theirs.json() == {"detail": "Conversation not found"}
    for path in ("/api/ai-sdk/ledger/alices/stream",):
        assert (await client.get(path, headers=bob.headers)).status_code == 404
    stop = await client.post("/api/ai-sdk/ledger/alices/stop", headers=bob.headers)
    assert stop.status_code == 404
    unknown = await client.post(
        "/api/ai-sdk/ledgre", json=_body([_user("hi")], chat="new"), headers=alice.headers
    )
    assert unknown.status_code == 400
    assert unknown.json()["known_pages"] == ["ledger"]
    listed = await client.get("/api/conversations", headers=alice.headers)
    assert [c["id"] for c in listed.json()["items"]] == ["alices"]


@pytest.mark.parametrize(
    "body",
    [
        {"id": "c", "messages": []},
        {"id": "not an id!", "messages": [_user("hi")]},
        {"id": "x" * 33, "messages": [_user("hi")]},  # a conversation id is at most 32
        {"messages": [_user("hi")]},
        {"id": "c", "messages": [_user("   ")]},
        {"id": "c", "messages": [_user("hi")], "trigger": "resume"},
        {"id": "c", "messages": [{"role": "assistant", "parts": [{"type": "text", "text": "x"}]}]},
    ],
)
async def test_a_bad_body_is_a_4xx_json_answer(
    client: httpx.AsyncClient, alice: Account, body: dict[str, Any]
) -> None:
    response = await client.post("/api/ai-sdk/ledger", json=body, headers=alice.headers)
    assert 400 <= response.status_code < 500
    assert "detail" in response.json()


async def test_the_page_context_the_app_adds_reaches_the_prompt(
    client: httpx.AsyncClient, alice: Account, model: FunctionModel, replies: Replies
) -> None:
    replies.append(["Seen."])
    body = _body(
        [_user("what page?")],
        context={"project": "Apollo", "client_context": [{"description": "d", "value": "v"}]},
    )
    await _post(client, alice, body)

    (request,) = model.requests
    assert '"project": "Apollo"' in request.system
    assert "ledger" in request.system
    # Only AG-UI's `context` entries fill the client block: this body's key is dropped.
    assert "Supplied by the client application" not in request.system


async def test_a_decision_or_output_the_routes_would_refuse_is_422_and_decides_nothing(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    _closing_tool()
    replies.append(["Closing it.", tool_call("close_year", {"year": 2025}, id="c-1")])
    first = await _post(client, alice, _body([_user("close 2025")]))
    assert first.message is not None
    message = json.loads(json.dumps(first.message))
    _responded(message, approved=False, reason="x" * 2001)  # the decision route's limit: 2,000

    long_note = await client.post(
        "/api/ai-sdk/ledger", json=_body([_user("close 2025"), message]), headers=alice.headers
    )

    assert long_note.status_code == 422
    (waiting,) = [m for m in await _stored(client, alice, "chat-1") if m["role"] == "assistant"]
    assert waiting["status"] == "needs_approval"
    assert waiting["approval"]["status"] == "pending"

    replies.append(["Asking.", tool_call("read_field", {"field": "title"}, id="fe-9")])
    asked = await _post(client, alice, _body([_user("title?")], chat="chat-2", tools=[READ_FIELD]))
    assert asked.message is not None
    answered = json.loads(json.dumps(asked.message))
    answered["parts"] = [
        {**p, "state": "output-available", "output": "A\x00B"} if p.get("toolCallId") else p
        for p in answered["parts"]
    ]
    nul = await client.post(
        "/api/ai-sdk/ledger",
        json=_body([_user("title?"), answered], chat="chat-2", tools=[READ_FIELD]),
        headers=alice.headers,
    )
    assert nul.status_code == 422
    assert (await _stored(client, alice, "chat-2"))[-1]["status"] == "needs_approval"


async def test_an_approval_response_resumes_the_turn_after_a_server_restart(
    client: httpx.AsyncClient,
    alice: Account,
    replies: Replies,
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
) -> None:
    _closing_tool()
    replies.append(["Closing it.", tool_call("close_year", {"year": 2025}, id="c-1")])
    first = await _post(client, alice, _body([_user("close 2025")]))
    assert first.message is not None
    message = json.loads(json.dumps(first.message))
    _responded(message, approved=True)

    # Another server on the same database: nothing of the paused turn waited in memory.
    restarted = create_app(
        model=model, store=SqlChatStore(sessions), authenticator=authenticator, sessions=sessions
    )
    replies.append(["Closed after the restart."])
    transport = httpx.ASGITransport(app=restarted)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as other:
        second = await _post(other, alice, _body([_user("close 2025"), message]), message)

    (tool,) = second.parts("tool-close_year")
    assert tool["state"] == "output-available" and tool["output"] == "closed 2025"
    assert [p["text"] for p in second.parts("text")][-1] == "Closed after the restart."


async def test_a_new_chat_is_titled_by_the_model_after_its_first_answer(
    client: httpx.AsyncClient, alice: Account, model: FunctionModel, replies: Replies
) -> None:
    model.title = "Ledger entries for May"
    replies.append(["Three entries."])
    await _post(client, alice, _body([_user("what did I enter in may?")], chat="chat-t"))

    async with asyncio.timeout(5):
        while True:
            listed = (await client.get("/api/conversations", headers=alice.headers)).json()
            if [c["title"] for c in listed["items"]] == ["Ledger entries for May"]:
                break
            await asyncio.sleep(0.02)
