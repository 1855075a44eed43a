"""Files on messages, through the API on a real uvicorn with the SQL store: sent with a
question (or alone), stored on it and shown on reload, read by the model on this turn and
later ones, kept by regenerate and edit (which can change them), checked per user and per
message, and deleted with their conversation."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image
from pypdf import PdfWriter
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth.authenticator import JwtAuthenticator
from pagechat.models import ModelRequest, ScriptItem
from pagechat.models.base import ModelMessage, UserTurn
from pagechat.quotas import QuotaPolicy
from pagechat.store.tables import Attachment
from pagechat.testing import read_all
from tests.conftest import Account
from tests.support.attachments_app import attachments_client

LIMITS = QuotaPolicy(attachments_per_message=2)


@dataclass
class Model:
    """Answers "OK" and keeps what each call was shown."""

    seen: list[list[ModelMessage]] = field(default_factory=list)

    def __call__(self, request: ModelRequest) -> list[ScriptItem]:
        self.seen.append(list(request.messages))
        return ["OK"]


@pytest.fixture
def script() -> Model:
    return Model()


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return tmp_path / "files"


@pytest.fixture
async def live(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    script: Model,
    files: Path,
) -> AsyncIterator[httpx.AsyncClient]:
    async with attachments_client(
        sessions=sessions, authenticator=authenticator, reply=script, files=files, limits=LIMITS
    ) as client:
        yield client


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (3000, 100), (0, 0, 0)).save(out, "PNG")
    return out.getvalue()


def _pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.add_metadata({"/Title": "A paper"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


async def _upload(client: httpx.AsyncClient, who: Account, name: str, data: bytes) -> str:
    r = await client.post("/api/attachments", files={"file": (name, data)}, headers=who.headers)
    assert r.status_code == 201, r.text
    attachment_id: str = r.json()["id"]
    return attachment_id


async def _chat(client: httpx.AsyncClient, who: Account, **body: Any) -> httpx.Response:
    async with client.stream("POST", "/api/chat/stream", json=body, headers=who.headers) as r:
        if r.status_code == 200:
            await read_all(r)
        else:
            await r.aread()
        return r


async def _messages(client: httpx.AsyncClient, who: Account, cid: str) -> list[dict[str, Any]]:
    r = await client.get(f"/api/conversations/{cid}", headers=who.headers)
    assert r.status_code == 200
    messages: list[dict[str, Any]] = r.json()["messages"]
    return messages


def _stored_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.is_file())


def _files_seen(messages: list[ModelMessage]) -> list[list[tuple[str, str]]]:
    return [[(f.kind, f.name) for f in m.files] for m in messages if isinstance(m, UserTurn)]


async def test_a_question_with_files_is_stored_and_read_by_the_model(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    image = await _upload(live, alice, "shot.png", _png())
    paper = await _upload(live, alice, "paper.pdf", _pdf())

    r = await _chat(live, alice, message="What is this?", attachments=[image, paper])

    assert r.status_code == 200
    (turn,) = [m for m in script.seen[-1] if isinstance(m, UserTurn)]
    assert [(f.kind, f.name, f.media_type) for f in turn.files] == [
        ("image", "shot.png", "image/jpeg"),  # re-encoded: opaque pixels travel as JPEG
        ("pdf", "paper.pdf", "application/pdf"),
    ]
    with Image.open(io.BytesIO(turn.files[0].data)) as sent:
        assert sent.size == (1568, 52)  # resized to the model's longest edge
    question = (await _messages(live, alice, r.headers["x-conversation-id"]))[0]
    assert question["content"] == "What is this?"
    assert [(a["id"], a["name"], a["media_type"]) for a in question["attachments"]] == [
        (image, "shot.png", "image/png"),
        (paper, "paper.pdf", "application/pdf"),
    ]


async def test_files_alone_may_be_sent_and_later_turns_still_carry_them(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    notes = await _upload(live, alice, "notes.md", b"# Plan\nShip it.")
    first = await _chat(live, alice, message="", attachments=[notes])
    cid = first.headers["x-conversation-id"]

    await _chat(live, alice, message="And the plan says?", conversation_id=cid)

    assert _files_seen(script.seen[-1]) == [[("text", "notes.md")], []]
    assert script.seen[-1][0].files[0].text == "# Plan\nShip it."  # type: ignore[union-attr]


async def test_a_blank_message_without_files_is_still_refused(
    live: httpx.AsyncClient, alice: Account
) -> None:
    assert (await _chat(live, alice, message="  ")).status_code == 422


async def test_another_users_file_cannot_be_sent(
    live: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    alices = await _upload(live, alice, "a.txt", b"secret")

    r = await _chat(live, bob, message="Read this", attachments=[alices])

    assert r.status_code == 404 and r.json()["detail"] == "Attachment not found"
    assert (await live.get("/api/conversations", headers=bob.headers)).json()["total"] == 0


async def test_more_files_than_the_role_allows_are_refused_422(
    live: httpx.AsyncClient, alice: Account
) -> None:
    ids = [await _upload(live, alice, f"{i}.txt", b"x") for i in range(3)]

    r = await _chat(live, alice, message="All of them", attachments=ids)

    assert r.status_code == 422
    assert r.json()["detail"] == "A message can carry at most 2 files."


async def test_a_sent_file_stays_with_its_conversation(
    live: httpx.AsyncClient, alice: Account
) -> None:
    sent = await _upload(live, alice, "a.txt", b"one")
    first = await _chat(live, alice, message="Keep", attachments=[sent])

    deleting = await live.delete(f"/api/attachments/{sent}", headers=alice.headers)
    elsewhere = await _chat(live, alice, message="Again", attachments=[sent])
    same = await _chat(
        live,
        alice,
        message="Again here",
        attachments=[sent],
        conversation_id=first.headers["x-conversation-id"],
    )

    assert deleting.status_code == 409 and "sent message" in deleting.json()["detail"]
    assert elsewhere.status_code == 404  # bound to its first conversation
    assert same.status_code == 200


async def test_regenerate_keeps_the_files_and_edit_can_change_them(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    a = await _upload(live, alice, "a.txt", b"first file")
    b = await _upload(live, alice, "b.txt", b"second file")
    cid = (await _chat(live, alice, message="Q", attachments=[a])).headers["x-conversation-id"]
    question, answer = await _messages(live, alice, cid)

    url = f"/api/conversations/{cid}/messages"
    async with live.stream(
        "POST", f"{url}/{answer['id']}/regenerate", json={}, headers=alice.headers
    ) as r:
        await read_all(r)
    regenerated = _files_seen(script.seen[-1])
    async with live.stream(
        "POST", f"{url}/{question['id']}/edit", json={"message": "Q2"}, headers=alice.headers
    ) as r:
        await read_all(r)
    kept = (await _messages(live, alice, cid))[0]
    async with live.stream(
        "POST",
        f"{url}/{kept['id']}/edit",
        json={"message": "Q3", "attachments": [b]},
        headers=alice.headers,
    ) as r:
        await read_all(r)
    changed = (await _messages(live, alice, cid))[0]

    assert regenerated == [[("text", "a.txt")]]
    assert kept["content"] == "Q2" and [x["id"] for x in kept["attachments"]] == [a]
    assert changed["content"] == "Q3" and [x["id"] for x in changed["attachments"]] == [b]
    assert _files_seen(script.seen[-1]) == [[("text", "b.txt")]]


async def test_deleting_a_conversation_deletes_its_files(
    live: httpx.AsyncClient,
    alice: Account,
    files: Path,
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    sent = await _upload(live, alice, "a.txt", b"gone soon")
    kept = await _upload(live, alice, "b.txt", b"not sent")
    cid = (await _chat(live, alice, message="Q", attachments=[sent])).headers["x-conversation-id"]

    r = await live.delete(f"/api/conversations/{cid}", headers=alice.headers)

    assert r.status_code == 204
    assert (await live.get(f"/api/attachments/{sent}", headers=alice.headers)).status_code == 404
    assert (await live.get(f"/api/attachments/{kept}", headers=alice.headers)).status_code == 200
    assert _stored_files(files) == [kept]
    async with sessions() as session:
        assert list(await session.scalars(select(Attachment.id))) == [kept]
