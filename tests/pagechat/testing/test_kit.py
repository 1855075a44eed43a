"""pagechat.testing as an app developer uses it: any app, a user, typed events."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from pagechat.protocol import (
    CompleteEvent,
    StatusEvent,
    TextDeltaEvent,
    ToolCompleteEvent,
    ToolStartEvent,
)
from pagechat.testing import (
    TEST_PASSWORD,
    assert_event_types,
    events,
    running_app,
    tool_call,
)


async def test_plain_pagechat_answers_a_user_of_its_own(tmp_path: Path) -> None:
    async with running_app(directory=tmp_path) as app:
        app.script(["Hello ", "there."])
        turn = await app.client.chat("hi")
    assert turn.status_code == 200
    assert turn.text == "Hello there."
    assert turn.payload.message == "Hello there."
    assert (tmp_path / "pagechat.db").is_file()


async def test_events_come_back_as_protocol_models() -> None:
    async with running_app() as app:
        app.script(
            [tool_call("present_choices", {"question": "Which?", "options": ["a", "b"]})],
            ["Pick one."],
        )
        turn = await app.client.chat("choose")
    kinds = [type(e) for e in turn.events if not isinstance(e, StatusEvent)]
    assert kinds[0] is ToolStartEvent
    assert ToolCompleteEvent in kinds
    assert isinstance(turn.events[-1], CompleteEvent)
    assert_event_types(
        [f for f in turn.frames if f.type != "status"],
        ["tool_start", "tool_complete", "text_delta", "complete"],
    )


async def test_the_sse_reader_yields_typed_events_as_they_arrive() -> None:
    async with running_app() as app:
        app.script("streamed")
        async with app.http.stream(
            "POST", "/api/chat/stream", json={"message": "x"}, headers=app.account.headers
        ) as response:
            got = [e async for e in events(response)]
    deltas = [e for e in got if isinstance(e, TextDeltaEvent)]
    assert [d.text for d in deltas] == ["streamed"]
    assert isinstance(got[-1], CompleteEvent)


async def test_another_user_sees_none_of_the_first_users_conversations() -> None:
    async with running_app() as app:
        app.script("mine")
        turn = await app.client.chat("hello")
        bob = await app.add_user("bob@example.com")
        theirs = await app.http.get(
            f"/api/conversations/{turn.conversation_id}", headers=bob.headers
        )
        mine = await app.http.get(
            f"/api/conversations/{turn.conversation_id}", headers=app.account.headers
        )
    assert theirs.status_code == 404
    assert mine.status_code == 200


async def test_the_test_user_can_log_in_with_the_documented_password() -> None:
    async with running_app(email="carol@example.com") as app:
        response = await app.http.post(
            "/api/auth/login", json={"email": "carol@example.com", "password": TEST_PASSWORD}
        )
    assert response.status_code == 200, response.text


async def test_an_app_factory_is_named_like_on_the_command_line() -> None:
    async with running_app("horizon.app:create_app") as app:
        response = await app.http.get("/api/horizon/streams", headers=app.account.headers)
    assert response.status_code == 200


async def test_a_refused_turn_comes_back_with_its_status_and_no_events() -> None:
    async with running_app() as app:
        turn = await app.client.chat("")
    assert turn.status_code == 422
    assert turn.frames == []


def test_the_kit_does_not_import_pytest() -> None:
    code = "import sys, pagechat.testing; print('pytest' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


async def test_the_server_is_gone_after_the_block() -> None:
    async with running_app() as app:
        base = app.base_url
    async with httpx.AsyncClient() as client:
        try:
            await client.get(f"{base}/api/health")
        except httpx.ConnectError:
            return
    raise AssertionError("the server still answers")


async def test_a_run_can_be_followed_again_from_any_event_on() -> None:
    async with running_app() as app:
        app.script(["one ", tool_call("present_choices", {"question": "?", "options": ["a"]})])
        turn = await app.client.chat("hi")
        again = await app.client.follow(turn.run_id)
        rest = await app.client.follow(turn.run_id, after=turn.frames[1].id)
    assert [f.event for f in again.frames] == [f.event for f in turn.frames]
    assert [f.id for f in rest.frames] == [f.id for f in turn.frames[2:]]
    assert rest.conversation_id == turn.conversation_id
