"""Isolation, route by route: every route of the app is either public or checked here.

For each checked route: another user gets 404 on Alice's conversation, run, message,
action or stream (and changes nothing); a missing, expired, forged or unsigned token
gets 401; and Alice's own answers never carry the admin-only context audit.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import jwt
import pytest
from fastapi.routing import iter_route_contexts
from sqlalchemy import select
from starlette.routing import Mount

from pagechat.auth import create_access_token
from pagechat.models import FunctionModel, ModelRequest, Pause, ScriptItem, UserTurn, tool_call
from pagechat.pages import ActionContext, PayloadConfig, ServerAction, register_page
from pagechat.store.approvals import Approval
from pagechat.store.tables import ApiKey, Attachment
from pagechat.testing import TEST_PASSWORD, frames
from pagechat.tools import ToolConfig
from tests.conftest import TEST_SECRET, Account
from tests.reliability.conftest import Live

AUDIT_SECRET = "ledger-7f3a-internal"
"""What the page's context builder adds on the server: only admins may see it."""

PUBLIC = {("POST", "/api/auth/login"), ("GET", "/api/health"), ("MOUNT", "web")}
ADMIN_ONLY = {
    ("GET", "/metrics"),
    ("GET", "/api/admin/sessions"),
    ("DELETE", "/api/admin/sessions/{session_id}"),
    ("DELETE", "/api/admin/users/{user_id}/sessions"),
    ("GET", "/api/admin/usage"),
}
"""Operators' routes: an admin's token (or the scraper's) reads them, nobody else."""
"""Routes that need no token: login, liveness and the web UI's static files."""

FRAMEWORK_DOCS = {
    ("GET", "/openapi.json"),
    ("GET", "/docs"),
    ("GET", "/docs/oauth2-redirect"),
    ("GET", "/redoc"),
}
"""FastAPI's generated API docs (development only); see
test_the_generated_api_docs_are_not_served_in_production."""


# --- the world: Alice's conversation, a finished run and a live one ---------------


@dataclass(frozen=True)
class World:
    conversation_id: str
    finished_run_id: str
    live_run_id: str
    card_message_id: str
    """Alice's finished answer, which carries a card (a payload) to decide on."""
    question_id: str
    """Alice's first question (to edit and resend)."""
    live_answer_id: str
    """The answer of the live run (to continue once stopped)."""
    actions: list[dict[str, Any]]
    """The data of every server action the handler ran."""
    approval_id: str
    """A tool call of Alice's, in a conversation of its own, waiting for her approval."""
    api_key_id: str
    """An API key of Alice's."""
    attachment_id: str
    """A file Alice uploaded and has not sent."""


async def _reply(request: ModelRequest) -> AsyncIterator[ScriptItem]:
    last = request.messages[-1]
    if isinstance(last, UserTurn) and last.text == "Keep going":
        yield "Working"
        yield Pause(30)
        yield "Done."
        return
    if isinstance(last, UserTurn) and last.text == "Close the ledger":
        yield tool_call("close_ledger", {})
        return
    yield 'Done.\nLEDGER_SUMMARY: {"total": 1}'


@pytest.fixture
async def world(live: Live) -> World:
    actions: list[dict[str, Any]] = []

    def note(data: dict[str, Any], ctx: ActionContext) -> dict[str, Any]:
        actions.append(data)
        return {"noted": True}

    register_page(
        "ledger",
        context_builder=lambda state: f"Ledger {state.get('account')}: {AUDIT_SECRET}",
        server_actions=[ServerAction("note", "Take a note", note)],
        payloads=[
            PayloadConfig(
                type="ledger_summary",
                parse_marker="LEDGER_SUMMARY:",
                llm_instructions="A summary card.",
                schema={"type": "object"},
            )
        ],
        tools=[
            ToolConfig(
                name="close_ledger",
                description="Close the ledger.",
                input_schema={"type": "object"},
                executor=lambda _params, _ctx: "Closed.",
                requires_approval=True,
            )
        ],
    )
    live.use_model(FunctionModel(_reply))
    finished, _ = await live.chat("Sum it up", context=LEDGER)
    conversation_id = finished.headers["x-conversation-id"]
    card = (await live.messages(conversation_id))[1]
    assert card["custom_payload"]["type"] == "ledger_summary"
    async with live.client.stream(
        "POST",
        "/api/chat/stream",
        json={"message": "Keep going", "conversation_id": conversation_id, "context": LEDGER},
        headers=live.alice.headers,
    ) as running:
        async for f in frames(running):
            if f.type == "text_delta":
                break
        live_run_id = running.headers["x-run-id"]
    paused, _ = await live.chat("Close the ledger", context=LEDGER)
    waiting = (await live.messages(paused.headers["x-conversation-id"]))[1]
    assert waiting["status"] == "needs_approval"
    # What the live answer streamed is saved now, not at the checkpointer's next tick in the
    # middle of a test that compares the conversation before and after.
    checkpoints = live.app.state.chat._checkpoints
    if checkpoints is not None:
        await checkpoints._flush()
    stored = await live.messages(conversation_id)
    key = await live.client.post(
        "/api/auth/api-keys", json={"name": "ledger bot"}, headers=live.alice.headers
    )
    assert key.status_code == 201, key.text
    upload = await live.client.post(
        "/api/attachments",
        files={"file": ("ledger.csv", b"account,total\nA-1,1\n", "text/csv")},
        headers=live.alice.headers,
    )
    assert upload.status_code == 201, upload.text
    return World(
        conversation_id,
        finished.headers["x-run-id"],
        live_run_id,
        card["id"],
        stored[0]["id"],
        stored[-1]["id"],
        actions,
        waiting["approval"]["id"],
        key.json()["id"],
        upload.json()["id"],
    )


LEDGER = {"current_page": "ledger", "account": "A-1"}


# --- every checked route: the owner's request and a stranger's attempt -----------


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    """With `{conversation_id}` / `{run_id}` / `{message_id}` filled from the world."""
    body: Callable[[World], dict[str, Any] | None] = lambda _w: None
    files: dict[str, tuple[str, bytes, str]] | None = None
    """A multipart body instead of `body` (an upload)."""
    run: str = "finished"
    """Which of Alice's runs `{run_id}` is: `finished` or `live`."""
    stranger: str = "404"
    """What another user gets: `404`, or `own` for routes about the caller alone."""
    message: str = "card"
    """Which of Alice's messages `{message_id}` is: `card`, `question` or `live_answer`."""
    idle: bool = False
    """Sent once Alice's runs have ended (a new branch waits for a running answer)."""
    ends_session: bool = False
    """Ends the session it is sent with (sign-out): sent with a session of its own where
    the same caller's other requests follow."""

    def url(self, world: World) -> str:
        run_id = world.live_run_id if self.run == "live" else world.finished_run_id
        message_id = {
            "card": world.card_message_id,
            "question": world.question_id,
            "live_answer": world.live_answer_id,
        }[self.message]
        return self.path.format(
            conversation_id=world.conversation_id,
            run_id=run_id,
            message_id=message_id,
            approval_id=world.approval_id,
            key_id=world.api_key_id,
            attachment_id=world.attachment_id,
        )

    async def send(self, live: Live, world: World, headers: dict[str, str]) -> httpx.Response:
        # Streams are read to their end: a relayed run is part of the answer.
        content: dict[str, Any] = (
            {"files": self.files} if self.files is not None else {"json": self.body(world)}
        )
        async with live.client.stream(
            self.method, self.url(world), headers=headers, **content
        ) as response:
            await response.aread()
            return response


CHECKED: dict[tuple[str, str], Route] = {
    ("GET", "/api/auth/me"): Route("GET", "/api/auth/me", stranger="own"),
    ("POST", "/api/auth/logout"): Route(
        "POST", "/api/auth/logout", stranger="own", ends_session=True
    ),
    ("POST", "/api/auth/logout-everywhere"): Route(
        "POST", "/api/auth/logout-everywhere", stranger="own", ends_session=True
    ),
    # Ends the caller's other sessions, so it gets one of its own too.
    ("POST", "/api/auth/password"): Route(
        "POST",
        "/api/auth/password",
        lambda _w: {"current_password": TEST_PASSWORD, "new_password": "a new long passphrase"},
        stranger="own",
        ends_session=True,
    ),
    ("GET", "/api/auth/api-keys"): Route("GET", "/api/auth/api-keys", stranger="own"),
    ("POST", "/api/auth/api-keys"): Route(
        "POST", "/api/auth/api-keys", lambda _w: {"name": "another"}, stranger="own"
    ),
    ("DELETE", "/api/auth/api-keys/{key_id}"): Route("DELETE", "/api/auth/api-keys/{key_id}"),
    ("GET", "/api/conversations"): Route("GET", "/api/conversations", stranger="own"),
    ("POST", "/api/attachments"): Route(
        "POST",
        "/api/attachments",
        files={"file": ("note.txt", b"a note", "text/plain")},
        stranger="own",
    ),
    ("GET", "/api/attachments/{attachment_id}"): Route("GET", "/api/attachments/{attachment_id}"),
    ("DELETE", "/api/attachments/{attachment_id}"): Route(
        "DELETE", "/api/attachments/{attachment_id}"
    ),
    ("GET", "/api/pages"): Route("GET", "/api/pages", stranger="own"),
    ("GET", "/api/payload-types"): Route("GET", "/api/payload-types", stranger="own"),
    # Words of Alice's answers: another user's search finds none of her conversations.
    ("GET", "/api/conversations/search"): Route(
        "GET", "/api/conversations/search?q=done", stranger="own"
    ),
    # Before any other turn: the stopped live answer is still the branch's last message.
    ("PUT", "/api/conversations/{conversation_id}/messages/{message_id}/feedback"): Route(
        "PUT",
        "/api/conversations/{conversation_id}/messages/{message_id}/feedback",
        lambda _w: {"rating": "down", "comment": "Wrong total."},
    ),
    ("PUT", "/api/conversations/{conversation_id}/messages/{message_id}/branch"): Route(
        "PUT",
        "/api/conversations/{conversation_id}/messages/{message_id}/branch",
        lambda _w: {"position": 1},
    ),
    ("POST", "/api/chat/runs/{run_id}/cancel"): Route(
        "POST", "/api/chat/runs/{run_id}/cancel", run="live"
    ),
    ("POST", "/api/conversations/{conversation_id}/messages/{message_id}/continue"): Route(
        "POST",
        "/api/conversations/{conversation_id}/messages/{message_id}/continue",
        lambda _w: {"context": LEDGER},
        message="live_answer",
        idle=True,
    ),
    ("POST", "/api/conversations/{conversation_id}/messages/{message_id}/regenerate"): Route(
        "POST",
        "/api/conversations/{conversation_id}/messages/{message_id}/regenerate",
        lambda _w: {"context": LEDGER},
        idle=True,
    ),
    ("POST", "/api/conversations/{conversation_id}/messages/{message_id}/edit"): Route(
        "POST",
        "/api/conversations/{conversation_id}/messages/{message_id}/edit",
        lambda _w: {"message": "Sum it up again", "context": LEDGER},
        message="question",
        idle=True,
    ),
    ("POST", "/api/chat/stream"): Route(
        "POST",
        "/api/chat/stream",
        lambda w: {"message": "And now?", "conversation_id": w.conversation_id, "context": LEDGER},
    ),
    # The AI SDK's chat id is the conversation's: Alice's (after the new turn above, so
    # the branch routes before it saw the stopped answer last).
    ("GET", "/api/ai-sdk/{page}/{chat_id}/stream"): Route(
        "GET", "/api/ai-sdk/ledger/{conversation_id}/stream", idle=True
    ),
    ("POST", "/api/ai-sdk/{page}/{chat_id}/stop"): Route(
        "POST", "/api/ai-sdk/ledger/{conversation_id}/stop", idle=True
    ),
    ("POST", "/api/ai-sdk/{page}"): Route(
        "POST",
        "/api/ai-sdk/ledger",
        lambda w: {
            "id": w.conversation_id,
            "messages": [{"id": "m1", "role": "user", "parts": [{"type": "text", "text": "Now?"}]}],
            "trigger": "submit-message",
            "context": {"account": "A-1"},
        },
        idle=True,
    ),
    ("POST", "/api/agui/{page}"): Route(
        "POST",
        "/api/agui/ledger",
        # A thread named like Alice's conversation still reaches only the caller's own.
        lambda w: {
            "threadId": w.conversation_id,
            "runId": "r1",
            "messages": [{"id": "m1", "role": "user", "content": "And now?"}],
            "state": {"account": "A-1"},
            "tools": [],
            "context": [],
            "forwardedProps": {},
        },
        stranger="own",
    ),
    ("GET", "/api/chat/runs/{run_id}/events"): Route(
        "GET", "/api/chat/runs/{run_id}/events?after=0"
    ),
    ("POST", "/api/chat/actions"): Route(
        "POST",
        "/api/chat/actions",
        lambda w: {
            "conversation_id": w.conversation_id,
            "action": "note",
            "data": {"text": "remember"},
            "context": LEDGER,
        },
    ),
    ("GET", "/api/conversations/{conversation_id}"): Route(
        "GET", "/api/conversations/{conversation_id}"
    ),
    ("PATCH", "/api/conversations/{conversation_id}"): Route(
        "PATCH", "/api/conversations/{conversation_id}", lambda _w: {"title": "Renamed"}
    ),
    ("POST", "/api/conversations/{conversation_id}/messages/{message_id}/decision"): Route(
        "POST",
        "/api/conversations/{conversation_id}/messages/{message_id}/decision",
        lambda _w: {"decision": "accepted"},
    ),
    ("POST", "/api/chat/approvals/{approval_id}"): Route(
        "POST", "/api/chat/approvals/{approval_id}", lambda _w: {"decision": "denied"}
    ),
    ("DELETE", "/api/conversations/{conversation_id}"): Route(
        "DELETE", "/api/conversations/{conversation_id}"
    ),
}
"""In an order Alice can send them all in: Stop and the new branches first, while the live
answer is the conversation's last; the delete last."""


def _app_routes(live: Live) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for context in iter_route_contexts(live.app.routes):
        if isinstance(context.original_route, Mount):
            found.add(("MOUNT", str(context.name)))
            continue
        for method in context.methods or ():
            if method != "HEAD":
                found.add((method, str(context.path_format)))
    return found


async def test_every_route_is_public_or_checked(live: Live) -> None:
    routes = _app_routes(live)

    unchecked = routes - PUBLIC - FRAMEWORK_DOCS - ADMIN_ONLY - set(CHECKED)

    assert unchecked == set(), f"add these routes to CHECKED or PUBLIC: {sorted(unchecked)}"
    assert set(CHECKED) <= routes, f"CHECKED names routes the app lacks: {set(CHECKED) - routes}"


async def test_the_generated_api_docs_are_not_served_in_production(live: Live) -> None:
    # PAGECHAT_ENV is production by default: no docs route exists, and each docs path is
    # the web UI's page (it answers unknown paths; a file it lacks is 404), token or not.
    assert _app_routes(live) & FRAMEWORK_DOCS == set()
    index = (await live.client.get("/")).text
    assert "id=root" in index
    for method, path in sorted(FRAMEWORK_DOCS):
        for headers in ({}, live.alice.headers):
            response = await live.client.request(method, path, headers=headers)
            assert (response.status_code, response.text) in [
                (200, index),
                (404, '{"detail":"Not Found"}'),
            ], f"{method} {path}"


async def test_admin_only_routes_refuse_users_and_strangers(live: Live) -> None:
    for method, path in sorted(ADMIN_ONLY):
        stranger = await live.client.request(method, path)
        assert stranger.status_code == 401, f"{method} {path}: {stranger.status_code}"
        user = await live.client.request(method, path, headers=live.alice.headers)
        assert user.status_code == 403, f"{method} {path}: {user.status_code}"
        assert user.json()["detail"]
        admin = await live.client.request(method, path, headers=live.admin.headers)
        # A path naming no real session (`{session_id}` as it is) is the admin's 404.
        allowed = {200, 404} if path == "/api/admin/sessions/{session_id}" else {200}
        assert admin.status_code in allowed, f"{method} {path}: {admin.status_code}"


# --- another user ------------------------------------------------------------------


async def _snapshot(live: Live, world: World) -> dict[str, Any]:
    detail = await live.client.get(
        f"/api/conversations/{world.conversation_id}", headers=live.alice.headers
    )
    assert detail.status_code == 200
    return {
        "detail": detail.json(),
        "active": sorted(run.id for run in live.runs.active()),
        "actions": list(world.actions),
        "approvals": await _approvals(live),
        "api_keys": await _api_keys(live, live.alice.user.id),
        "attachments": await _attachments(live, live.alice.user.id),
    }


async def _approvals(live: Live) -> list[dict[str, Any]]:
    """Every row of the approvals table: a stranger's decision must not touch Alice's."""
    async with live.app.state.chat.sessions() as session:
        rows = (await session.scalars(select(Approval).order_by(Approval.id))).all()
    return [
        {column.key: getattr(row, column.key) for column in Approval.__table__.columns}
        for row in rows
    ]


async def _attachments(live: Live, user_id: str) -> list[str]:
    """The ids of `user_id`'s attachments: a stranger must not delete Alice's."""
    async with live.app.state.chat.sessions() as session:
        query = select(Attachment.id).where(Attachment.user_id == user_id).order_by(Attachment.id)
        return list((await session.scalars(query)).all())


async def _api_keys(live: Live, user_id: str) -> list[str]:
    """The ids of `user_id`'s API keys: a stranger must not revoke Alice's."""
    async with live.app.state.chat.sessions() as session:
        query = select(ApiKey.id).where(ApiKey.user_id == user_id).order_by(ApiKey.id)
        return list((await session.scalars(query)).all())


@pytest.mark.parametrize("key", list(CHECKED), ids=lambda k: f"{k[0]} {k[1]}")
async def test_another_user_gets_404_and_changes_nothing(
    live: Live, world: World, key: tuple[str, str]
) -> None:
    route = CHECKED[key]
    before = await _snapshot(live, world)

    response = await route.send(live, world, live.bob.headers)

    if route.stranger == "own":
        assert response.status_code in (200, 201)
        assert live.alice.user.id not in response.text
        assert world.api_key_id not in response.text
        if response.headers["content-type"].startswith("text/event-stream"):
            # An AG-UI run echoes the thread id the caller sent; the answer went elsewhere.
            (finished,) = [d for d in _documents(response) if d.get("type") == "RUN_FINISHED"]
            assert finished["result"]["conversation_id"] != world.conversation_id
        else:
            assert world.conversation_id not in response.text
            body = response.json()
            if isinstance(body, dict) and "email" in body:  # a user: the caller
                assert body["id"] == live.bob.user.id
    else:
        assert response.status_code == 404, response.text
        assert response.json()["detail"] in (
            "Conversation not found",
            "Run not found",
            "Approval not found",
            "No such API key",
            "Attachment not found",
        )
    assert await _snapshot(live, world) == before


async def test_the_snapshot_sees_an_approval_decided(live: Live, world: World) -> None:
    # Regression: the snapshot held no approvals, so a stranger's decision on Alice's
    # request would have passed unseen as long as the routes answered 404.
    before = await _snapshot(live, world)
    response = await live.client.post(
        f"/api/chat/approvals/{world.approval_id}",
        json={"decision": "denied"},
        headers=live.alice.headers,
    )
    assert response.status_code == 200
    after = await _snapshot(live, world)
    decided = {row["id"]: row["status"] for row in after["approvals"]}
    assert decided[world.approval_id] == "denied"
    assert after["approvals"] != before["approvals"]


# --- no valid token ----------------------------------------------------------------


def _b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def _credentials(kind: str, alice: Account) -> dict[str, str]:
    in_an_hour = int((datetime.now(UTC) + timedelta(hours=1)).timestamp())
    tokens = {
        "expired": create_access_token(
            user_id=alice.user.id,
            secret=TEST_SECRET,
            ttl=timedelta(hours=1),
            now=datetime.now(UTC) - timedelta(days=1),
        ),
        "wrong_signature": create_access_token(
            user_id=alice.user.id, secret="f" * 40, ttl=timedelta(hours=1)
        ),
        "alg_none": f"{_b64({'alg': 'none', 'typ': 'JWT'})}."
        f"{_b64({'sub': alice.user.id, 'exp': in_an_hour})}.",
        "no_expiry": jwt.encode({"sub": alice.user.id}, TEST_SECRET, algorithm="HS256"),
        "garbage": "not.a.token",
    }
    if kind == "missing":
        return {}
    if kind == "basic":
        return {"Authorization": "Basic YWxpY2U6cGFzc3dvcmQ="}
    return {"Authorization": f"Bearer {tokens[kind]}"}


@pytest.mark.parametrize(
    "kind",
    ["missing", "expired", "wrong_signature", "alg_none", "no_expiry", "garbage", "basic"],
)
async def test_a_request_without_a_valid_token_gets_401_on_every_checked_route(
    live: Live, world: World, kind: str
) -> None:
    headers = _credentials(kind, live.alice)
    before = await _snapshot(live, world)

    for route in CHECKED.values():
        response = await route.send(live, world, headers)
        where = f"{route.method} {route.path}"
        assert response.status_code == 401, f"{where}: {response.status_code} {response.text}"
        assert response.headers["WWW-Authenticate"] == "Bearer", where
        assert response.json()["detail"], where

    assert await _snapshot(live, world) == before


# --- admin-only fields ---------------------------------------------------------------


def _audits(value: Any) -> list[Any]:
    """Every `context_audit` value anywhere in a JSON document."""
    found: list[Any] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if "context_audit" in item:
                found.append(item["context_audit"])
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


def _documents(response: httpx.Response) -> list[Any]:
    """The JSON a response carries: its body, or each SSE event's data."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        # `[DONE]`: the AI SDK stream's last line, not JSON.
        return [
            json.loads(line[5:])
            for line in response.text.splitlines()
            if line.startswith("data:") and line != "data: [DONE]"
        ]
    if not response.headers.get("content-type", "").startswith("application/json"):
        return []  # a file's bytes (an attachment's download), or no body
    return [response.json()] if response.content else []


async def _new_session(live: Live) -> str:
    """Another session of Alice's (the fixture's password may have changed meanwhile)."""
    return await live.authenticator.issue_token(live.alice.user)


async def test_the_context_audit_reaches_admins_only(live: Live, world: World) -> None:
    seen: list[str] = []
    own = live.alice.headers
    for route in CHECKED.values():
        if route.idle:  # the stopped run has ended (and its answer is stored)
            running = [run.task for run in live.runs.active() if run.task is not None]
            await asyncio.gather(*running, return_exceptions=True)
        headers = own
        if route.ends_session:
            headers = {"Authorization": f"Bearer {await _new_session(live)}"}
        response = await route.send(live, world, headers)
        if route.ends_session:  # signing out everywhere ended `own` too
            own = {"Authorization": f"Bearer {await _new_session(live)}"}
        where = f"{route.method} {route.path}"
        assert response.status_code < 300, f"{where}: {response.status_code} {response.text}"
        assert AUDIT_SECRET not in response.text, where
        for document in _documents(response):
            assert all(audit is None for audit in _audits(document)), where
            seen.extend(_audits(document))

    admin_turn, _ = await live.chat("Sum it up", account=live.admin, context=LEDGER)
    conversation_id = admin_turn.headers["x-conversation-id"]
    admin_view = await live.messages(conversation_id, account=live.admin)

    assert seen, "no response carried messages: the check above proved nothing"
    assert AUDIT_SECRET in admin_view[-1]["context_audit"]
