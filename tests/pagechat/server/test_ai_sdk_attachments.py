"""The AI SDK's file parts (`POST /api/ai-sdk/{page}`, what `sendMessage({files})` sends:
a `data:` URL) become the user message's attachments, as an upload would, on a real
uvicorn with the SQL store; each answer read by the SDK's own reader (Node, `ai`)."""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth.authenticator import JwtAuthenticator
from pagechat.models.base import UserTurn
from pagechat.pages import clear_pages, register_page
from pagechat.quotas import QuotaPolicy
from tests.conftest import Account
from tests.pagechat.server.test_attachments_chat import (
    Model,
    _messages,
    _pdf,
    _png,
    _stored_files,
    _upload,
)
from tests.support.ai_sdk import read_ui_stream
from tests.support.attachments_app import attachments_client

LIMITS = QuotaPolicy(attachments_per_message=2, attachment_bytes=50_000)


@pytest.fixture(autouse=True)
def _page() -> Iterator[None]:
    clear_pages()
    register_page("ledger")
    yield
    clear_pages()


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


def _file(data: bytes, media_type: str, name: str) -> dict[str, Any]:
    """A file part as `useChat` makes it from a `File` (a base64 `data:` URL)."""
    url = f"data:{media_type};base64,{base64.b64encode(data).decode()}"
    return {"type": "file", "mediaType": media_type, "filename": name, "url": url}


async def _send(
    client: httpx.AsyncClient, who: Account, *parts: dict[str, Any], chat: str = "chat-1"
) -> httpx.Response:
    message = {"id": "u1", "role": "user", "parts": [*parts, {"type": "text", "text": "And?"}]}
    body = {"id": chat, "messages": [message], "trigger": "submit-message"}
    return await client.post("/api/ai-sdk/ledger", json=body, headers=who.headers)


async def test_an_image_and_a_pdf_are_read_by_the_model_and_shown_on_reload(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    r = await _send(
        live,
        alice,
        _file(_png(), "image/png", "shot.png"),
        _file(_pdf(), "application/pdf", "paper.pdf"),
    )

    assert r.status_code == 200, r.text
    read = read_ui_stream(r.text)
    assert read.error is None and read.parts("text")[0]["text"] == "OK"
    (turn,) = [m for m in script.seen[-1] if isinstance(m, UserTurn)]
    assert [(f.kind, f.name) for f in turn.files] == [("image", "shot.png"), ("pdf", "paper.pdf")]
    question = (await _messages(live, alice, "chat-1"))[0]
    assert question["content"] == "And?"
    assert [(a["name"], a["media_type"]) for a in question["attachments"]] == [
        ("shot.png", "image/png"),
        ("paper.pdf", "application/pdf"),
    ]


async def test_a_reloaded_file_parts_url_names_the_stored_attachment(
    live: httpx.AsyncClient, alice: Account, script: Model, files: Path
) -> None:
    paper = await _upload(live, alice, "paper.pdf", _pdf())
    # What the example's history gives back after a reload: the attachment's own URL.
    part = {"type": "file", "mediaType": "application/pdf", "url": f"/api/attachments/{paper}"}

    r = await _send(live, alice, part)

    assert r.status_code == 200, r.text
    (turn,) = [m for m in script.seen[-1] if isinstance(m, UserTurn)]
    assert [(f.kind, f.name) for f in turn.files] == [("pdf", "paper.pdf")]
    assert [a["id"] for a in (await _messages(live, alice, "chat-1"))[0]["attachments"]] == [paper]
    assert len(_stored_files(files)) == 1  # named, not stored again


async def test_another_users_attachment_is_not_found(
    live: httpx.AsyncClient, alice: Account, bob: Account, script: Model
) -> None:
    alices = await _upload(live, alice, "a.txt", b"secret")
    part = {"type": "file", "mediaType": "text/plain", "url": f"/api/attachments/{alices}"}

    r = await _send(live, bob, part)

    assert r.status_code == 404 and r.json() == {"detail": "Attachment not found"}
    assert script.seen == []


async def test_a_file_over_the_limit_is_413_before_anything_is_stored(
    live: httpx.AsyncClient, alice: Account, files: Path
) -> None:
    r = await _send(live, alice, _file(os.urandom(60_000), "image/png", "big.png"))

    assert r.status_code == 413
    assert r.json()["detail"].startswith("This file is larger than")
    assert _stored_files(files) == []


async def test_bad_base64_or_a_refused_type_is_4xx_json(
    live: httpx.AsyncClient, alice: Account, files: Path
) -> None:
    bad = {"type": "file", "mediaType": "image/png", "url": "data:image/png;base64,no!"}
    plain = {"type": "file", "mediaType": "text/plain", "url": "data:text/plain,hello"}
    html = _file(b"<html><script>alert(1)</script></html>", "text/plain", "page.txt")

    assert (await _send(live, alice, bad)).status_code == 422
    assert (await _send(live, alice, plain)).status_code == 422
    refused = await _send(live, alice, html)
    assert refused.status_code == 415 and refused.json()["detail"]
    assert _stored_files(files) == []


async def test_a_remote_url_is_refused_422_and_never_fetched(
    live: httpx.AsyncClient, alice: Account
) -> None:
    part = {"type": "file", "mediaType": "image/png", "url": "https://example.com/cat.png"}

    r = await _send(live, alice, part)

    assert r.status_code == 422
    assert "fetches nothing" in r.json()["detail"]


async def test_a_refused_message_leaves_no_file_stored(
    live: httpx.AsyncClient, alice: Account, bob: Account, files: Path
) -> None:
    await _send(live, alice, {"type": "text", "text": "Hello"})
    stored = _stored_files(files)

    r = await _send(live, bob, _file(_png(), "image/png", "shot.png"))  # alice's chat-1

    assert r.status_code == 404 and r.json() == {"detail": "Conversation not found"}
    assert _stored_files(files) == stored == []
