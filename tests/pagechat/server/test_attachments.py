"""Attachments over HTTP: upload (streamed, typed from the bytes), download (the owner's
only, as a download), delete before sending; every limit; on file and database storage,
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image
from pypdf import PdfWriter
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.attachments import Attachments, DatabaseStorage, FileStorage
from pagechat.auth.authenticator import JwtAuthenticator
from pagechat.quotas import QuotaPolicy, QuotaSettings
from pagechat.server import create_app
from pagechat.store.base import ChatStore
from pagechat.store.tables import Attachment
from pagechat.testing import FunctionModel
from tests.conftest import Account

LIMITS = QuotaPolicy(
    attachment_bytes=200_000,
    attachments_per_message=2,
    attachment_bytes_per_day=600_000,
    attachment_bytes_stored=500_000,
)


def png(width: int = 40, height: int = 30, **extra: object) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "PNG", **extra)
    return out.getvalue()


def pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture(params=["files", "database"])
def attachments(
    request: pytest.FixtureRequest, sessions: async_sessionmaker[AsyncSession], tmp_path: Path
) -> Attachments:
    storage = (
        FileStorage(tmp_path / "files") if request.param == "files" else DatabaseStorage(sessions)
    )
    return Attachments(
        sessions=sessions,
        storage=storage,
        quotas=QuotaSettings(user=LIMITS, admin=LIMITS),
        retention_days=30,
    )


@pytest.fixture
async def client(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    attachments: Attachments,
) -> AsyncIterator[httpx.AsyncClient]:
    app: FastAPI = create_app(
        model=FunctionModel(lambda _request: "OK"),
        store=ChatStore(sessions),
        authenticator=authenticator,
        sessions=sessions,
        attachments=attachments,
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


async def upload(
    client: httpx.AsyncClient,
    account: Account,
    data: bytes,
    name: str = "photo.png",
    content_type: str = "application/octet-stream",
) -> httpx.Response:
    return await client.post(
        "/api/attachments", files={"file": (name, data, content_type)}, headers=account.headers
    )


async def test_an_image_is_stored_typed_from_its_bytes_and_read_back_by_its_owner(
    client: httpx.AsyncClient, alice: Account
) -> None:
    data = png()

    made = await upload(client, alice, data, name="screen shot.txt", content_type="text/html")

    assert made.status_code == 201, made.text
    body = made.json()
    assert body["name"] == "screen shot.txt" and body["size"] == len(data)
    assert body["media_type"] == "image/png"  # the bytes, not the name or the client
    got = await client.get(f"/api/attachments/{body['id']}", headers=alice.headers)
    assert got.status_code == 200 and got.content == data
    assert got.headers["content-type"] == "image/png"
    assert got.headers["x-content-type-options"] == "nosniff"
    assert got.headers["content-disposition"].startswith("attachment;")
    assert "default-src 'self'" in got.headers["content-security-policy"]


async def test_another_users_attachment_is_not_found(
    client: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    made = (await upload(client, alice, png())).json()

    assert (
        await client.get(f"/api/attachments/{made['id']}", headers=bob.headers)
    ).status_code == 404
    assert (
        await client.delete(f"/api/attachments/{made['id']}", headers=bob.headers)
    ).status_code == 404
    assert (
        await client.get("/api/attachments/" + "0" * 32, headers=alice.headers)
    ).status_code == 404
    assert (await client.get(f"/api/attachments/{made['id']}")).status_code == 401


async def test_a_pdf_and_text_files_are_accepted(client: httpx.AsyncClient, alice: Account) -> None:
    kinds = [
        (await upload(client, alice, pdf(), name="paper.pdf")).json()["media_type"],
        (await upload(client, alice, "# Notes\nCafé".encode(), name="n.md")).json()["media_type"],
        (await upload(client, alice, b"a,b\n1,2\n", name="t.csv")).json()["media_type"],
        (await upload(client, alice, b'{"a": [1]}', name="d.json")).json()["media_type"],
    ]

    assert kinds == ["application/pdf", "text/markdown", "text/csv", "application/json"]


async def test_markdown_and_csv_are_typed_by_their_extension_and_downloaded_so(
    client: httpx.AsyncClient, alice: Account
) -> None:
    notes = (await upload(client, alice, b"# Notes\n", name="notes.MD")).json()
    table = (await upload(client, alice, b"a,b\n1,2\n", name="t.csv")).json()

    note_file = await client.get(f"/api/attachments/{notes['id']}", headers=alice.headers)
    table_file = await client.get(f"/api/attachments/{table['id']}", headers=alice.headers)

    assert note_file.headers["content-type"].startswith("text/markdown")
    assert table_file.headers["content-type"].startswith("text/csv")
    assert note_file.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "cat.png"),
        (b"<!DOCTYPE html><html><body>hi</body></html>", "page.txt"),
        (b"MZ\x90\x00\x03\x00\x00\x00\x04\x00", "tool.pdf"),
        (b"\x89PNG\r\n\x1a\n<html><script>alert(1)</script></html>", "fake.png"),
        (b"%PDF-1.7\n<script>alert(1)</script>", "fake.pdf"),
    ],
    ids=["svg-with-script", "html", "executable", "png-magic-then-html", "pdf-magic-then-html"],
)
async def test_unsafe_or_unknown_types_are_refused_with_a_sentence(
    client: httpx.AsyncClient, alice: Account, data: bytes, name: str
) -> None:
    r = await upload(client, alice, data, name=name)

    assert r.status_code == 415, r.text
    assert r.json()["detail"].endswith(".")


async def test_a_polyglot_is_served_only_as_its_sniffed_type_and_a_download(
    client: httpx.AsyncClient, alice: Account
) -> None:
    # A valid PNG with HTML after its end: an image, never a page.
    data = png() + b"<html><script>alert(1)</script></html>"
    made = (await upload(client, alice, data, name="x.html")).json()

    got = await client.get(f"/api/attachments/{made['id']}", headers=alice.headers)

    assert made["media_type"] == "image/png"
    assert got.headers["content-type"] == "image/png"
    assert got.headers["content-disposition"].startswith("attachment;")


async def test_a_decompression_bomb_is_refused_before_decoding(
    client: httpx.AsyncClient, alice: Account
) -> None:
    # 20,000 x 20,000 of one colour: a few kB compressed, 1.2 GB decoded.
    out = io.BytesIO()
    Image.new("1", (20_000, 20_000)).save(out, "PNG", optimize=True)

    r = await upload(client, alice, out.getvalue(), name="bomb.png")

    assert r.status_code == 415
    assert "pixels" in r.json()["detail"]


async def test_a_file_over_the_limit_is_refused_413(
    client: httpx.AsyncClient, alice: Account
) -> None:
    r = await upload(client, alice, b"a" * (LIMITS.attachment_bytes + 1), name="big.txt")

    assert r.status_code == 413
    assert r.json() == {"detail": "This file is larger than 195 kB: send a smaller one."}


async def test_stored_and_daily_bytes_are_limited_429(
    client: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    chunk = b"b" * 150_000
    made = [await upload(client, alice, chunk, name=f"{i}.txt") for i in range(4)]

    assert [r.status_code for r in made] == [201, 201, 201, 429]
    assert "space" in made[3].json()["detail"]
    deleted = await client.delete(f"/api/attachments/{made[0].json()['id']}", headers=alice.headers)
    assert deleted.status_code == 204
    again = await upload(client, alice, chunk, name="again.txt")
    assert again.status_code == 201  # room again
    daily = await upload(client, alice, chunk, name="more.txt")
    assert daily.status_code == 429 and "today" in daily.json()["detail"]
    assert (await upload(client, bob, chunk)).status_code == 201  # bob's own share


async def test_names_are_metadata_only_and_cannot_traverse(
    client: httpx.AsyncClient, alice: Account, sessions: async_sessionmaker[AsyncSession]
) -> None:
    # Written by hand: httpx would escape the CR LF a hostile client sends as they are.
    body = (
        b"--b0undary\r\n"
        b'Content-Disposition: form-data; name="file"; filename="../../etc/passwd\tX: y"\r\n'
        b"Content-Type: text/plain\r\n\r\nhello\r\n--b0undary--\r\n"
    )
    sent = await client.post(
        "/api/attachments",
        content=body,
        headers={**alice.headers, "Content-Type": "multipart/form-data; boundary=b0undary"},
    )
    made = sent.json()

    assert made["name"] == "passwd_X_ y"
    got = await client.get(f"/api/attachments/{made['id']}", headers=alice.headers)
    assert got.headers["content-disposition"] == (
        "attachment; filename=\"passwd_X_ y\"; filename*=UTF-8''passwd_X_%20y"
    )
    async with sessions() as session:
        row = (await session.scalars(select(Attachment))).one()
    assert row.id == made["id"] and len(row.id) == 32


async def test_a_unicode_name_is_sent_rfc_5987_safe(
    client: httpx.AsyncClient, alice: Account
) -> None:
    made = (await upload(client, alice, b"x", name="résumé final's.txt")).json()

    got = await client.get(f"/api/attachments/{made['id']}", headers=alice.headers)

    assert got.headers["content-disposition"] == (
        'attachment; filename="r_sum_ final\'s.txt"; '
        "filename*=UTF-8''r%C3%A9sum%C3%A9%20final%27s.txt"
    )


async def test_a_body_that_is_not_a_form_gets_422(
    client: httpx.AsyncClient, alice: Account
) -> None:
    r = await client.post("/api/attachments", json={"file": "x"}, headers=alice.headers)

    assert r.status_code == 422 and "multipart" in r.json()["detail"]


async def _client_with(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    attachments: Attachments,
    policy: QuotaPolicy,
) -> httpx.AsyncClient:
    attachments.quotas = QuotaSettings(user=policy, admin=policy)
    app = create_app(
        model=FunctionModel(lambda _request: "OK"),
        store=ChatStore(sessions),
        authenticator=authenticator,
        sessions=sessions,
        attachments=attachments,
    )
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


@pytest.mark.parametrize(
    "policy",
    [
        pytest.param(
            QuotaPolicy(attachment_bytes=200_000, attachment_bytes_stored=500_000), id="stored"
        ),
        pytest.param(
            QuotaPolicy(attachment_bytes=200_000, attachment_bytes_per_day=500_000), id="daily"
        ),
    ],
)
async def test_uploads_at_once_never_overshoot_the_quota(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    attachments: Attachments,
    alice: Account,
    policy: QuotaPolicy,
) -> None:
    async with await _client_with(sessions, authenticator, attachments, policy) as client:
        answers = await asyncio.gather(
            *(upload(client, alice, b"a" * 150_000, name=f"n{n}.txt") for n in range(8))
        )

    async with sessions() as session:
        stored = list(
            await session.scalars(
                select(Attachment.size).where(Attachment.user_id == alice.user.id)
            )
        )
    statuses = sorted(answer.status_code for answer in answers)
    assert sum(stored) <= 500_000 and len(stored) == 3
    assert statuses == [201] * 3 + [429] * 5
    refused = [answer.json() for answer in answers if answer.status_code == 429]
    assert all("detail" in body for body in refused)
