"""Shared fixtures: real databases (a SQLite file; PostgreSQL when configured), accounts, an app.

Redis tests start their own `redis-server` (Debian's package) on a free port; without
the binary they are skipped, except in CI, where that is a failure.

PostgreSQL tests need PAGECHAT_TEST_POSTGRES_URL (postgresql+asyncpg://..., a role
allowed to create databases); each test gets a database of its own. Without the
variable they are skipped — except in CI (CI=true), where that is a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import hypothesis.core
import pytest
from fastapi import FastAPI
from hypothesis.vendor import pretty
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from pagechat.auth import JwtAuthenticator, hash_password
from pagechat.models import FunctionModel, ScriptItem
from pagechat.server import create_app
from pagechat.store import SqlChatStore, create_engine, create_sessionmaker, upgrade_async
from pagechat.store.db import create_point_reader
from pagechat.store.users import create_user, principal_of
from pagechat.testing import TestAccount
from tests.support.redis_cluster import RedisClusterServers
from tests.support.redis_server import RedisServer, redis_server_binary

# Importing schemathesis (its pytest plugin does, at start-up) swaps Hypothesis' example
# printer for one that prints nothing, for speed on large schemas: every Hypothesis test
# would then report its failing example as `x=,`. The real printer is back from here on.
setattr(hypothesis.core, "RepresentationPrinter", pretty.RepresentationPrinter)  # noqa: B010

POSTGRES_ENV = "PAGECHAT_TEST_POSTGRES_URL"
TEST_SECRET = "test-secret-" + "x" * 40
PASSWORD = "correct horse battery staple"


@pytest.fixture
def sqlite_url(tmp_path: os.PathLike[str]) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/pagechat.db"


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database, dropped afterwards."""
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{POSTGRES_ENV} is not set: CI must run the PostgreSQL tests")
        pytest.skip(f"{POSTGRES_ENV} is not set")
    name = f"pagechat_test_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server of this test's own (persistence off), stopped afterwards."""
    server = RedisServer(redis_server_binary())
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


@pytest.fixture
def redis_cluster() -> Iterator[RedisClusterServers]:
    """A real 3-master Redis Cluster of this test's own, stopped afterwards."""
    cluster = RedisClusterServers()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test using this runs once on SQLite and once on PostgreSQL."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a migrated database."""
    engine = create_engine(database_url)
    await upgrade_async(engine)
    yield engine
    await engine.dispose()


@pytest.fixture
def sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return create_sessionmaker(engine)


@pytest.fixture(scope="session")
def password_hash() -> str:
    # One argon2 hash for every test account: hashing is slow on purpose.
    return hash_password(PASSWORD)


Account = TestAccount
"""A user and their token (pagechat.testing's, so the public kit and these fixtures mix)."""


async def make_account(
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    password_hash: str,
    email: str,
    *,
    is_admin: bool = False,
) -> Account:
    async with sessions.begin() as session:
        row = await create_user(
            session=session, email=email, password_hash=password_hash, is_admin=is_admin
        )
    user = principal_of(row)
    return Account(user, await authenticator.issue_token(user))


@pytest.fixture
def authenticator(
    sessions: async_sessionmaker[AsyncSession], database_url: str
) -> Iterator[JwtAuthenticator]:
    # As the app makes it: on SQLite, users are read through the synchronous point reader.
    reader = create_point_reader(database_url)
    yield JwtAuthenticator(sessions=sessions, secret=TEST_SECRET, reader=reader)
    if reader is not None:
        reader.dispose()


@pytest.fixture
async def alice(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, password_hash: str
) -> Account:
    return await make_account(sessions, authenticator, password_hash, "alice@example.com")


@pytest.fixture
async def bob(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, password_hash: str
) -> Account:
    return await make_account(sessions, authenticator, password_hash, "bob@example.com")


@pytest.fixture
async def admin(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, password_hash: str
) -> Account:
    return await make_account(
        sessions, authenticator, password_hash, "admin@example.com", is_admin=True
    )


@pytest.fixture
def sql_store(sessions: async_sessionmaker[AsyncSession]) -> SqlChatStore:
    return SqlChatStore(sessions)


@pytest.fixture
def replies() -> list[list[ScriptItem]]:
    """The app model's next replies, one per model call; a test appends what it needs."""
    return []


@pytest.fixture
def model(replies: list[list[ScriptItem]]) -> FunctionModel:
    return FunctionModel(lambda _request: replies.pop(0) if replies else "OK")


@pytest.fixture
def app(sql_store: SqlChatStore, authenticator: JwtAuthenticator, model: FunctionModel) -> FastAPI:
    return create_app(model=model, store=sql_store, authenticator=authenticator)


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client
