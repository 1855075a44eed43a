"""Horizon's fixtures: its pages and tools registered as the app does, its database, its data.

The real PubMed files stay in ../shared (next to the repository) or under
$PAGECHAT_SHARED_DIR; they are read in place, never copied, and parsed once per
test session. Without them the tests that need them skip — except in CI
(CI=true), where they fail. Every database test runs on SQLite and, with
PAGECHAT_TEST_POSTGRES_URL, on PostgreSQL (see tests/conftest.py), in a copy of a
database migrated once per session.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from horizon.api import ROUTERS
from horizon.domain import ImportCounts, import_articles
from horizon.migrations import VERSION_LOCATIONS
from horizon.offline import OfflineModel
from horizon.pages import PAGE_MODULES
from horizon.pubmed import ArticleRecord, PubmedItem, iter_corpus_items, synthetic_corpus
from horizon.tools import HORIZON_TOOLS, register_horizon_tools
from pagechat.auth import JwtAuthenticator
from pagechat.pages import get_page, load_pages
from pagechat.server import create_app
from pagechat.store import SqlChatStore, create_engine, upgrade_async
from pagechat.tools import ToolConfig
from tests.conftest import POSTGRES_ENV, Account
from tests.fakes.eutils_server import FakeEutils
from tests.horizon.world import World, build_world

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLE_SIZE = 120


@pytest.fixture(autouse=True)
def horizon_pages() -> None:
    # A test elsewhere may have emptied the page registry; put the pages back the way
    # the app does, re-running a module whose page is gone.
    load_pages(PAGE_MODULES)
    for name in PAGE_MODULES:
        module = importlib.import_module(name)
        if get_page(module.PAGE.page) is not module.PAGE:
            importlib.reload(module)


@pytest.fixture(autouse=True)
def local_pubmed(monkeypatch: pytest.MonkeyPatch) -> None:
    """PubMed is the local store unless a test says otherwise (whatever a .env says)."""
    monkeypatch.setenv("HORIZON_PUBMED", "local")


@pytest.fixture
def horizon_tools() -> tuple[ToolConfig, ...]:
    register_horizon_tools()
    return HORIZON_TOOLS


# --- the real PubMed files -------------------------------------------------------


def _shared_dir() -> Path:
    override = os.environ.get("PAGECHAT_SHARED_DIR")
    return Path(override) if override else REPO_ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    path = _shared_dir()
    if not (path / "data" / "pubmed" / "SOURCES.md").is_file():
        reason = (
            f"real PubMed data not found under {path} (set PAGECHAT_SHARED_DIR to the shared "
            "folder)"
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def pubmed_dir(shared_dir: Path) -> Path:
    return shared_dir / "data" / "pubmed"


@pytest.fixture(scope="session")
def corpus_dir(pubmed_dir: Path) -> Path:
    return pubmed_dir / "corpus"


@pytest.fixture(scope="session")
def corpus_items(corpus_dir: Path) -> list[PubmedItem]:
    """Every record and deletion of the real corpus, in import order, parsed once."""
    return list(iter_corpus_items(corpus_dir))


CRISPR_PMID = "26673326"
"""A real record on a CRISPR-Cas9 screen in glioblastoma: the paper shared as a PDF."""


@pytest.fixture(scope="session")
def crispr_record(corpus_items: list[PubmedItem]) -> ArticleRecord:
    """The real record `CRISPR_PMID`, from the corpus in ../shared."""
    return next(i for i in corpus_items if isinstance(i, ArticleRecord) and i.pmid == CRISPR_PMID)


@pytest.fixture(scope="session")
def _eutils_server(pubmed_dir: Path) -> Iterator[FakeEutils]:
    with FakeEutils(pubmed_dir) as server:
        yield server


@pytest.fixture
def fake_eutils(_eutils_server: FakeEutils) -> Iterator[FakeEutils]:
    _eutils_server.reset()
    yield _eutils_server
    _eutils_server.reset()


# --- the database ----------------------------------------------------------------


async def _migrated_template(admin_url: str, name: str) -> None:
    admin = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await admin.dispose()
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    await upgrade_async(url, version_locations=VERSION_LOCATIONS)


async def _drop(admin_url: str, name: str) -> None:
    admin = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


@pytest.fixture(scope="session")
def _postgres_template() -> Iterator[str | None]:
    """A migrated PostgreSQL database, made once, that each test's database copies."""
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url:
        yield None
        return
    name = f"horizon_template_{uuid.uuid4().hex[:12]}"
    asyncio.run(_migrated_template(admin_url, name))
    try:
        yield name
    finally:
        asyncio.run(_drop(admin_url, name))


@pytest.fixture
async def migrated_postgres_url(_postgres_template: str | None) -> AsyncIterator[str]:
    """A fresh PostgreSQL database, already migrated (a copy of the template), dropped after."""
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url or _postgres_template is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{POSTGRES_ENV} is not set: CI must run the PostgreSQL tests")
        pytest.skip(f"{POSTGRES_ENV} is not set")
    name = f"horizon_test_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{_postgres_template}"'))
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        await admin.dispose()
        await _drop(admin_url, name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test using this runs once on SQLite and once on PostgreSQL (already migrated:
    the migration tests use empty databases of their own)."""
    name = "sqlite_url" if request.param == "sqlite" else "migrated_postgres_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a database migrated with pagechat's history and Horizon's branch."""
    engine = create_engine(database_url)
    await upgrade_async(engine, version_locations=VERSION_LOCATIONS)
    yield engine
    await engine.dispose()


@pytest.fixture
async def session(sessions: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    async with sessions() as session:
        yield session


@pytest.fixture
async def sample_articles(sessions: async_sessionmaker[AsyncSession]) -> list[ArticleRecord]:
    """The synthetic sample (its first SAMPLE_SIZE records), in the store."""
    records = synthetic_corpus(SAMPLE_SIZE)
    async with sessions.begin() as session:
        await import_articles(session=session, records=records)
    return records


@pytest.fixture
async def corpus_articles(
    sessions: async_sessionmaker[AsyncSession], corpus_items: list[PubmedItem]
) -> ImportCounts:
    """The real corpus, in the store."""
    async with sessions.begin() as session:
        return await import_articles(session=session, records=corpus_items)


@pytest.fixture
async def world(
    session: AsyncSession, alice: Account, bob: Account, sample_articles: list[ArticleRecord]
) -> World:
    """Alice and Bob, each with the demo streams and reports."""
    return await build_world(session, alice, bob)


# --- the app -------------------------------------------------------------------


@pytest.fixture
def horizon_app(
    sql_store: SqlChatStore,
    authenticator: JwtAuthenticator,
    sessions: async_sessionmaker[AsyncSession],
    horizon_tools: tuple[ToolConfig, ...],
) -> FastAPI:
    """pagechat's app as Horizon wires it: offline model, Horizon's routes, tools and pages."""
    return create_app(
        model=OfflineModel(delay=0),
        store=sql_store,
        authenticator=authenticator,
        routers=ROUTERS,
        sessions=sessions,
    )


@pytest.fixture
async def horizon_client(horizon_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=horizon_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client
