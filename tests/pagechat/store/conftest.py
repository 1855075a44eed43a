"""The store under test, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from pagechat.identity import Principal
from pagechat.store import ChatStore
from tests.support.stores import migrated_store

ALICE = Principal("a", "alice@example.com")
BOB = Principal("b", "bob@example.com")


@dataclass
class Setup:
    store: ChatStore
    alice: Principal
    bob: Principal


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture
async def s(store_url: str) -> AsyncIterator[Setup]:
    async with migrated_store(store_url, ALICE, BOB) as store:
        yield Setup(store, ALICE, BOB)
