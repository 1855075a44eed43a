"""Regenerate, edit and resend, continue, branch picking and feedback, through the API on a
real uvicorn with the SQL store (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pagechat.models import FunctionModel, ModelRequest, Pause, ScriptItem
from pagechat.models.base import AssistantTurn, ModelFinish, ModelMessage, UserTurn
from pagechat.testing import Frame, frames, read_all, serve
from tests.conftest import Account


@dataclass
class Model:
    """Answers each call with the next reply, and keeps what each call was shown."""

    replies: list[list[ScriptItem]] = field(default_factory=list)
    seen: list[list[ModelMessage]] = field(default_factory=list)

    def __call__(self, request: ModelRequest) -> list[ScriptItem]:
        self.seen.append(list(request.messages))
        return self.replies.pop(0) if self.replies else ["OK"]


@pytest.fixture
def script() -> Model:
    return Model()


@pytest.fixture
def model(script: Model) -> FunctionModel:
    return FunctionModel(script)


@pytest.fixture
async def live(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with serve(app) as base, httpx.AsyncClient(base_url=base, timeout=10) as client:
        yield client


def _said(messages: list[ModelMessage]) -> list[str]:
    return [m.text for m in messages if isinstance(m, UserTurn | AssistantTurn)]


async def _chat(
    client: httpx.AsyncClient, who: Account, message: str, conversation_id: str | None = None
) -> tuple[str, list[Frame]]:
    body: dict[str, Any] = {"message": message}
    if conversation_id:
        body["conversation_id"] = conversation_id
    async with client.stream("POST", "/api/chat/stream", json=body, headers=who.headers) as r:
        assert r.status_code == 200
        return r.headers["x-conversation-id"], await read_all(r)


def _url(conversation_id: str, message_id: str, action: str) -> str:
    return f"/api/conversations/{conversation_id}/messages/{message_id}/{action}"


async def _branch(
    client: httpx.AsyncClient, who: Account, cid: str, mid: str, action: str, **body: Any
) -> tuple[httpx.Response, list[Frame]]:
    async with client.stream("POST", _url(cid, mid, action), json=body, headers=who.headers) as r:
        if r.status_code == 200:
            return r, await read_all(r)
        await r.aread()
        return r, []


async def _path(client: httpx.AsyncClient, who: Account, cid: str, **params: Any) -> dict[str, Any]:
    r = await client.get(f"/api/conversations/{cid}", params=params, headers=who.headers)
    assert r.status_code == 200
    detail: dict[str, Any] = r.json()
    return detail


def _summary(detail: dict[str, Any]) -> list[tuple[str, str, int, int]]:
    return [
        (m["role"], m["content"], m["sibling_position"], m["sibling_count"])
        for m in detail["messages"]
    ]


def _text(fs: list[Frame]) -> str:
    return "".join(f.event["text"] for f in fs if f.type == "text_delta")


async def _two_turns(client: httpx.AsyncClient, who: Account, script: Model) -> dict[str, Any]:
    script.replies += [["A1"], ["A2"]]
    cid, _ = await _chat(client, who, "Q1")
    await _chat(client, who, "Q2", cid)
    detail = await _path(client, who, cid)
    return {"cid": cid, **{m["content"]: m for m in detail["messages"]}}


async def test_regenerate_the_first_answer_adds_a_sibling_the_model_sees_alone(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    script.replies.append(["A1, again"])

    r, fs = await _branch(live, alice, talk["cid"], talk["A1"]["id"], "regenerate")

    assert r.status_code == 200 and r.headers["x-run-id"]
    assert [f.type for f in fs][-1] == "complete" and _text(fs) == "A1, again"
    assert _said(script.seen[-1]) == ["Q1"]
    detail = await _path(live, alice, talk["cid"])
    assert _summary(detail) == [("user", "Q1", 1, 1), ("assistant", "A1, again", 2, 2)]
    assert detail["active_leaf_id"] == fs[-1].event["payload"]["message_id"]
    script.replies.append(["A3"])
    await _chat(live, alice, "Q3", talk["cid"])
    assert _said(script.seen[-1]) == ["Q1", "A1, again", "Q3"]


async def test_edit_a_message_that_has_descendants_starts_a_new_branch(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    script.replies.append(["A1 for the edit"])

    r, fs = await _branch(
        live, alice, talk["cid"], talk["Q1"]["id"], "edit", message="Q1, better put"
    )

    assert r.status_code == 200 and _text(fs) == "A1 for the edit"
    assert _said(script.seen[-1]) == ["Q1, better put"]
    detail = await _path(live, alice, talk["cid"])
    assert _summary(detail) == [
        ("user", "Q1, better put", 2, 2),
        ("assistant", "A1 for the edit", 1, 1),
    ]


async def test_switching_branches_is_stored_and_reload_shows_the_same_path(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    script.replies.append(["A1b"])
    await _branch(live, alice, talk["cid"], talk["A1"]["id"], "regenerate")

    r = await live.put(
        _url(talk["cid"], talk["A1"]["id"], "branch"), json={"position": 1}, headers=alice.headers
    )

    assert r.status_code == 200
    back = [
        ("user", "Q1", 1, 1),
        ("assistant", "A1", 1, 2),
        ("user", "Q2", 1, 1),
        ("assistant", "A2", 1, 1),
    ]
    assert _summary(r.json()) == back
    assert _summary(await _path(live, alice, talk["cid"])) == back
    script.replies.append(["A3"])
    await _chat(live, alice, "Q3", talk["cid"])
    assert _said(script.seen[-1]) == ["Q1", "A1", "Q2", "A2", "Q3"]


async def _regenerate_and_stop(
    live: httpx.AsyncClient, who: Account, cid: str, mid: str
) -> list[Frame]:
    async with live.stream("POST", _url(cid, mid, "regenerate"), json={}, headers=who.headers) as r:
        seen: list[Frame] = []
        async for f in frames(r):
            seen.append(f)
            if _text(seen) == "Half":
                cancel = await live.post(
                    f"/api/chat/runs/{r.headers['x-run-id']}/cancel", headers=who.headers
                )
                assert cancel.status_code == 202
                break
        return seen + [f async for f in frames(r)]


async def test_switching_to_a_branch_whose_answer_was_cancelled_shows_it_cancelled(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    script.replies.append(["Half", Pause(30), " never"])
    fs = await _regenerate_and_stop(live, alice, talk["cid"], talk["A1"]["id"])
    assert fs[-1].type == "cancelled"
    await live.put(
        _url(talk["cid"], talk["A1"]["id"], "branch"), json={"position": 1}, headers=alice.headers
    )

    r = await live.put(
        _url(talk["cid"], talk["A1"]["id"], "branch"), json={"position": 2}, headers=alice.headers
    )

    answer = r.json()["messages"][-1]
    assert (answer["content"], answer["status"], answer["sibling_position"]) == (
        "Half",
        "cancelled",
        2,
    )


async def test_regenerate_while_an_answer_runs_answers_409(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    script.replies.append(["Working", Pause(30), " done"])
    async with live.stream(
        "POST",
        "/api/chat/stream",
        json={"message": "Q3", "conversation_id": talk["cid"]},
        headers=alice.headers,
    ) as running:
        async for f in frames(running):
            if f.type == "text_delta":
                break

        for action, body in (("regenerate", {}), ("edit", {"message": "again"})):
            mid = talk["A1"]["id"] if action == "regenerate" else talk["Q1"]["id"]
            r, _ = await _branch(live, alice, talk["cid"], mid, action, **body)
            assert r.status_code == 409
            assert "still running" in r.json()["detail"]
        await live.post(
            f"/api/chat/runs/{running.headers['x-run-id']}/cancel", headers=alice.headers
        )


async def test_another_users_message_answers_404_and_changes_nothing(
    live: httpx.AsyncClient, alice: Account, bob: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    before = await _path(live, alice, talk["cid"])
    bobs_cid, _ = await _chat(live, bob, "mine")
    cid, mid = talk["cid"], talk["A1"]["id"]

    attempts = [
        await _branch(live, bob, cid, mid, "regenerate"),
        await _branch(live, bob, cid, talk["Q1"]["id"], "edit", message="x"),
        await _branch(live, bob, cid, mid, "continue"),
        # Alice's message through a conversation of Bob's: still not his.
        await _branch(live, bob, bobs_cid, mid, "regenerate"),
    ]
    puts = [
        await live.put(_url(cid, mid, "branch"), json={"position": 1}, headers=bob.headers),
        await live.put(_url(cid, mid, "feedback"), json={"rating": "up"}, headers=bob.headers),
        await live.put(_url(bobs_cid, mid, "feedback"), json={"rating": "up"}, headers=bob.headers),
    ]

    assert [r.status_code for r, _ in attempts] == [404, 404, 404, 404]
    assert [r.status_code for r in puts] == [404, 404, 404]
    assert all(r.json()["detail"] for r in puts)
    assert await _path(live, alice, talk["cid"]) == before


async def test_regenerating_a_question_or_editing_an_answer_is_refused(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)

    regenerate, _ = await _branch(live, alice, talk["cid"], talk["Q1"]["id"], "regenerate")
    edit, _ = await _branch(live, alice, talk["cid"], talk["A1"]["id"], "edit", message="x")
    finished, _ = await _branch(live, alice, talk["cid"], talk["A2"]["id"], "continue")
    blank, _ = await _branch(live, alice, talk["cid"], talk["Q1"]["id"], "edit", message="  ")
    picked = await live.put(
        _url(talk["cid"], talk["A1"]["id"], "branch"), json={"position": 2}, headers=alice.headers
    )

    assert regenerate.status_code == 409 and "regenerated" in regenerate.json()["detail"]
    assert edit.status_code == 409 and "edited" in edit.json()["detail"]
    assert finished.status_code == 409 and "nothing to continue" in finished.json()["detail"]
    assert blank.status_code == 422
    assert picked.status_code == 404


async def test_the_history_pages_through_the_active_path_only(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    script.replies.append(["A1b"])
    await _branch(live, alice, talk["cid"], talk["A1"]["id"], "regenerate")
    script.replies.append(["A4"])
    await _chat(live, alice, "Q4", talk["cid"])

    newest = await _path(live, alice, talk["cid"], limit=2)
    oldest = await _path(live, alice, talk["cid"], limit=2, before=newest["older"])

    assert [m["content"] for m in newest["messages"]] == ["Q4", "A4"]
    assert [m["content"] for m in oldest["messages"]] == ["Q1", "A1b"]
    assert oldest["older"] is None
    assert oldest["messages"][1]["sibling_position"] == 2


async def test_continue_after_stop_appends_to_the_same_answer(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    script.replies += [["A1"], ["Half", Pause(30), " never"]]
    cid, _ = await _chat(live, alice, "Q1")
    first = (await _path(live, alice, cid))["messages"][1]
    fs = await _regenerate_and_stop(live, alice, cid, first["id"])
    assert fs[-1].type == "cancelled"
    stopped = (await _path(live, alice, cid))["messages"][1]
    script.replies.append([" and the rest."])

    r, fs = await _branch(live, alice, cid, stopped["id"], "continue")

    assert r.status_code == 200
    assert _text(fs) == " and the rest."
    assert fs[-1].event["payload"]["message"] == "Half and the rest."
    assert fs[-1].event["payload"]["message_id"] == stopped["id"]
    last = script.seen[-1][-1]
    assert isinstance(last, AssistantTurn) and last.partial and last.text == "Half"
    answer = (await _path(live, alice, cid))["messages"][-1]
    assert (answer["id"], answer["content"], answer["status"]) == (
        stopped["id"],
        "Half and the rest.",
        "complete",
    )


async def test_continue_a_cut_off_answer_and_resume_it_from_last_event_id(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    script.replies.append(["Cut", ModelFinish(stop_reason="max_tokens")])
    cid, _ = await _chat(live, alice, "Q1")
    cut = (await _path(live, alice, cid))["messages"][1]
    assert cut["stop_reason"] == "max_tokens"
    script.replies.append([" off", Pause(0.2), " here."])

    async with live.stream(
        "POST", _url(cid, cut["id"], "continue"), json={}, headers=alice.headers
    ) as r:
        run_id = r.headers["x-run-id"]
        seen = []
        async for f in frames(r):
            seen.append(f)
            if f.type == "text_delta":
                break
    resumed = await live.get(
        f"/api/chat/runs/{run_id}/events",
        headers={**alice.headers, "Last-Event-ID": str(seen[-1].id)},
    )

    rest = [f async for f in frames(resumed)]
    assert _text(seen + rest) == " off here."
    assert rest[-1].event["payload"]["message"] == "Cut off here."


async def test_feedback_is_kept_changed_and_shown_to_its_author_only(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    talk = await _two_turns(live, alice, script)
    url = _url(talk["cid"], talk["A1"]["id"], "feedback")

    up = await live.put(url, json={"rating": "up"}, headers=alice.headers)
    down = await live.put(
        url, json={"rating": "down", "comment": " Wrong year. "}, headers=alice.headers
    )
    on_question = await live.put(
        _url(talk["cid"], talk["Q1"]["id"], "feedback"),
        json={"rating": "up"},
        headers=alice.headers,
    )
    bad = await live.put(url, json={"rating": "meh"}, headers=alice.headers)

    assert up.status_code == 200 and up.json()["feedback"]["rating"] == "up"
    assert down.json()["feedback"]["rating"] == "down"
    assert down.json()["feedback"]["comment"] == "Wrong year."
    assert on_question.status_code == 409
    assert bad.status_code == 422
    reloaded = (await _path(live, alice, talk["cid"]))["messages"][1]
    assert reloaded["feedback"]["rating"] == "down"
    assert reloaded["feedback"]["comment"] == "Wrong year."
