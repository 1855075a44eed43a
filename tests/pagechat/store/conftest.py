"""The stores under test: the in-memory one, and SQL on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from pagechat.identity import Principal
from pagechat.store import (
    ChatStore,
    MemoryChatStore,
    SqlChatStore,
    create_engine,
    create_sessionmaker,
    upgrade_async,
)
from pagechat.store.users import create_user, principal_of


@dataclass
class Setup:
    store: ChatStore
    alice: Principal
    bob: Principal


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest) -> str | None:
    if request.param == "memory":
        return None
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture
async def s(store_url: str | None, password_hash: str) -> AsyncIterator[Setup]:
    if store_url is None:
        yield Setup(
            MemoryChatStore(),
            Principal("a", "alice@example.com"),
            Principal("b", "bob@example.com"),
        )
        return
    engine = create_engine(store_url)
    await upgrade_async(engine)
    sessions = create_sessionmaker(engine)
    async with sessions.begin() as session:
        alice = await create_user(
            session=session, email="alice@example.com", password_hash=password_hash
        )
        bob = await create_user(
            session=session, email="bob@example.com", password_hash=password_hash
        )
    yield Setup(SqlChatStore(sessions), principal_of(alice), principal_of(bob))
    await engine.dispose()
