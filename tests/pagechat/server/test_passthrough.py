"""An answer's body frames skip pagechat's start-only middleware, and only those."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pagechat.events import TextDelta
from pagechat.models import ScriptedModel
from pagechat.runs.log import MemoryEventLog
from pagechat.server import StaticTokens, create_app
from pagechat.server.headers import CONTENT_SECURITY_POLICY
from pagechat.server.sse import EventStream
from pagechat.testing import read_all, serve, streamed_text
from tests.support.harness import ALICE, AUTH_A
from tests.support.stores import sqlite_store


class _Seen:
    """Middleware that keeps the type of every message it passes on."""

    def __init__(self, app: ASGIApp, *, into: list[str]) -> None:
        self.app = app
        self.into = into

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def _send(message: Message) -> None:
            self.into.append(message["type"])
            await send(message)

        await self.app(scope, receive, _send)


class _Shout:
    """Middleware that rewrites bodies: every `hello` the client gets is `HELLO`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def _send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.body":
                message["body"] = message.get("body", b"").replace(b"hello", b"HELLO")
            await send(message)

        await self.app(scope, receive, _send)


@asynccontextmanager
async def _app(*replies: Any) -> AsyncIterator[FastAPI]:
    model = ScriptedModel(list(replies))
    async with sqlite_store(ALICE) as store:
        yield create_app(
            model=lambda: model, store=store, authenticator=StaticTokens({"token-a": ALICE})
        )


async def _answer(base: str) -> tuple[httpx.Response, str]:
    async with (
        httpx.AsyncClient(base_url=base, timeout=10) as client,
        client.stream(
            "POST", "/api/chat/stream", json={"message": "hi"}, headers=AUTH_A
        ) as response,
    ):
        return response, streamed_text(await read_all(response))


async def test_answer_frames_skip_pagechat_middleware_which_still_adds_its_headers() -> None:
    seen: list[str] = []
    async with _app(["hello", " there"]) as app:
        # Innermost, beside pagechat's own SecurityHeaders and BodySizeLimit.
        app.user_middleware.append(Middleware(_Seen, into=seen))
        async with serve(app) as base:
            response, text = await _answer(base)
    assert text == "hello there"
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["cache-control"] == "no-store"
    # The start went through it; the frames (text, status, complete) did not.
    assert [t for t in seen if t.startswith("http.")] == ["http.response.start"]


async def test_middleware_the_app_adds_sees_every_frame_of_an_answer() -> None:
    async with _app(["hello", " there"]) as app:
        app.add_middleware(_Shout)
        async with serve(app) as base:
            _, text = await _answer(base)
    assert text == "HELLO there"


async def _stream() -> EventStream:
    log = MemoryEventLog()
    log.add(TextDelta(text="hello"))
    log.close()
    return EventStream(log)


async def _starlette_stream(request: Request) -> EventStream:
    return await _stream()


def _mount_app(app: FastAPI) -> None:
    sub = FastAPI()
    sub.add_api_route("/events", _stream)
    sub.add_middleware(_Shout)
    app.mount("/sub", sub)


def _mount_router(app: FastAPI) -> None:
    app.router.routes.append(
        Mount("/sub", routes=[Route("/events", _starlette_stream)], middleware=[Middleware(_Shout)])
    )


@pytest.mark.parametrize("mount", [_mount_app, _mount_router])
async def test_a_stream_from_a_mount_goes_through_the_mount_middleware(
    mount: Callable[[FastAPI], None],
) -> None:
    async with _app() as app:
        mount(app)
        async with (
            serve(app) as base,
            httpx.AsyncClient(base_url=base, timeout=10) as client,
            client.stream("GET", "/sub/events", headers=AUTH_A) as response,
        ):
            assert response.status_code == 200
            text = streamed_text(await read_all(response))
    assert text == "HELLO"
