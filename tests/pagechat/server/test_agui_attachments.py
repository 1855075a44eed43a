"""AG-UI image and document parts (`POST /api/agui/{page}`) become the user message's
attachments, as an upload would, on a real uvicorn with the SQL store: the model reads
them, a reload of the conversation shows them, and every limit answers a JSON refusal."""

from __future__ import annotations

import base64
import io
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image
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


def _data(kind: str, data: bytes, mime: str, name: str) -> dict[str, Any]:
    source = {"type": "data", "value": base64.b64encode(data).decode(), "mimeType": mime}
    return {"type": kind, "source": source, "metadata": {"filename": name}}


def _url(kind: str, url: str) -> dict[str, Any]:
    return {"type": kind, "source": {"type": "url", "value": url}}


async def _run(
    client: httpx.AsyncClient, who: Account, *parts: dict[str, Any], thread: str = "t-1"
) -> httpx.Response:
    body = {
        "threadId": thread,
        "runId": "run-1",
        "state": {},
        "messages": [
            {
                "id": "m1",
                "role": "user",
                "content": [{"type": "text", "text": "What is this?"}, *parts],
            }
        ],
        "tools": [],
        "context": [],
        "forwardedProps": {},
    }
    response = await client.post("/api/agui/ledger", json=body, headers=who.headers)
    return response


async def test_an_image_and_a_pdf_as_data_are_read_by_the_model_and_shown_on_reload(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    r = await _run(
        live,
        alice,
        _data("image", _png(), "image/png", "shot.png"),
        _data("document", _pdf(), "application/pdf", "paper.pdf"),
    )

    assert r.status_code == 200, r.text
    assert "RUN_FINISHED" in r.text
    (turn,) = [m for m in script.seen[-1] if isinstance(m, UserTurn)]
    assert [(f.kind, f.name) for f in turn.files] == [("image", "shot.png"), ("pdf", "paper.pdf")]
    with Image.open(io.BytesIO(turn.files[0].data)) as sent:
        assert sent.size == (1568, 52)  # the image path of an upload: resized, re-encoded
    question = (await _messages(live, alice, r.headers["x-conversation-id"]))[0]
    assert question["content"] == "What is this?"
    assert [(a["name"], a["media_type"]) for a in question["attachments"]] == [
        ("shot.png", "image/png"),  # typed from the bytes, as an upload is
        ("paper.pdf", "application/pdf"),
    ]
    download = await live.get(
        f"/api/attachments/{question['attachments'][0]['id']}", headers=alice.headers
    )
    assert download.content == _png()


async def test_an_existing_attachment_is_named_by_its_url(
    live: httpx.AsyncClient, alice: Account, script: Model
) -> None:
    paper = await _upload(live, alice, "paper.pdf", _pdf())

    r = await _run(live, alice, _url("document", f"/api/attachments/{paper}"))

    assert r.status_code == 200, r.text
    (turn,) = [m for m in script.seen[-1] if isinstance(m, UserTurn)]
    assert [(f.kind, f.name) for f in turn.files] == [("pdf", "paper.pdf")]
    question = (await _messages(live, alice, r.headers["x-conversation-id"]))[0]
    assert [a["id"] for a in question["attachments"]] == [paper]


async def test_another_users_attachment_is_not_found(
    live: httpx.AsyncClient, alice: Account, bob: Account, script: Model
) -> None:
    alices = await _upload(live, alice, "a.txt", b"secret")

    r = await _run(live, bob, _url("document", f"{live.base_url}/api/attachments/{alices}"))

    assert r.status_code == 404 and r.json() == {"detail": "Attachment not found"}, r.text
    assert script.seen == []


async def test_a_file_over_the_limit_is_413_before_anything_is_stored(
    live: httpx.AsyncClient, alice: Account, files: Path
) -> None:
    r = await _run(live, alice, _data("image", os.urandom(60_000), "image/png", "big.png"))

    assert r.status_code == 413
    assert r.json()["detail"].startswith("This file is larger than")
    assert _stored_files(files) == []


async def test_bad_base64_a_refused_type_or_too_many_files_are_4xx_json(
    live: httpx.AsyncClient, alice: Account, files: Path
) -> None:
    bad = {"type": "image", "source": {"type": "data", "value": "no!", "mimeType": "image/png"}}
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    many = [_data("image", _png(), "image/png", "a.png")] * 3

    assert (await _run(live, alice, bad)).status_code == 422
    refused = await _run(live, alice, _data("image", svg, "image/png", "x.png"))
    assert refused.status_code == 415 and refused.json()["detail"]
    too_many = await _run(live, alice, *many)
    assert too_many.status_code == 422 and too_many.json()["limit"] == 2
    assert _stored_files(files) == []


async def test_a_remote_url_is_refused_422_and_never_fetched(
    live: httpx.AsyncClient, alice: Account
) -> None:
    r = await _run(live, alice, _url("image", "https://example.com/cat.png"))

    assert r.status_code == 422
    assert "fetches nothing" in r.json()["detail"]
