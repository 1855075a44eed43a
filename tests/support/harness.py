"""A real pagechat app on loopback with a swappable ScriptedModel, fixed tokens and a
migrated SQLite store (tests/support/stores.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from pagechat.chat import ChatConfig
from pagechat.identity import Principal
from pagechat.models import ScriptedModel
from pagechat.protocol import ConversationDetail
from pagechat.runs import RunManager
from pagechat.server import StaticTokens, create_app
from pagechat.store import ChatStore
from pagechat.testing import Frame, read_all, serve
from tests.support.stores import sqlite_store

ALICE = Principal(id="alice", email="alice@example.com")
BOB = Principal(id="bob", email="bob@example.com")
ADMIN = Principal(id="root", email="root@example.com", is_admin=True)
AUTH_A = {"Authorization": "Bearer token-a"}
AUTH_B = {"Authorization": "Bearer token-b"}
AUTH_ADMIN = {"Authorization": "Bearer token-admin"}
USERS = (ALICE, BOB, ADMIN)
TOKENS = {"token-a": ALICE, "token-b": BOB, "token-admin": ADMIN}


class Harness:
    def __init__(self, client: httpx.AsyncClient, store: ChatStore, runs: RunManager) -> None:
        self.client = client
        self.store = store
        self.runs = runs
        self.model = ScriptedModel([])

    def script(self, *replies: Any, delay: float = 0.0) -> ScriptedModel:
        self.model = ScriptedModel(list(replies), delay=delay)
        return self.model

    async def chat(
        self, message: str = "hello", headers: dict[str, str] = AUTH_A, **body: Any
    ) -> tuple[httpx.Response, list[Frame]]:
        async with self.client.stream(
            "POST", "/api/chat/stream", json={"message": message, **body}, headers=headers
        ) as r:
            return r, await read_all(r)

    async def stored_conversations(self) -> list[ConversationDetail]:
        """Every user's stored conversations, oldest first, each with its active path."""
        found = []
        for user in USERS:
            listed = await self.store.list_conversations(user=user, limit=100)
            for conversation in reversed(listed.items):
                found.append(
                    await self.store.get_conversation(user=user, conversation_id=conversation.id)
                )
        return found

    async def stored_conversation(self) -> ConversationDetail:
        """The first stored conversation (a test's only one, as a rule)."""
        return (await self.stored_conversations())[0]


@asynccontextmanager
async def harness(
    config: ChatConfig | None = None, *, cancel_on_disconnect: bool = False
) -> AsyncIterator[Harness]:
    runs = RunManager()
    holder: dict[str, Harness] = {}
    async with sqlite_store(*USERS) as store:
        app = create_app(
            model=lambda: holder["h"].model,
            store=store,
            runs=runs,
            config=config,
            cancel_on_disconnect=cancel_on_disconnect,
            authenticator=StaticTokens(TOKENS),
        )
        async with serve(app) as base, httpx.AsyncClient(base_url=base, timeout=10) as client:
            holder["h"] = Harness(client, store, runs)
            yield holder["h"]
