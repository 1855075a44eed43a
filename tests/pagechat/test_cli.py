"""The `pagechat` command: database upgrades, accounts, the demo account, serving."""

from __future__ import annotations

import asyncio
import getpass
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from alembic.script import ScriptDirectory

from pagechat.auth import InvalidCredentials, JwtAuthenticator
from pagechat.auth.passwords import hash_password
from pagechat.cli import main
from pagechat.identity import Principal
from pagechat.protocol import ToolHistoryEntry, Usage
from pagechat.store import SqlChatStore, create_engine, create_sessionmaker, upgrade_async
from pagechat.store.base import AssistantRecord
from pagechat.store.migrate import alembic_config, current_revisions
from pagechat.store.users import create_user, principal_of
from pagechat.testing import free_port
from tests.conftest import TEST_SECRET


@pytest.fixture
def db(database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", database_url)
    return database_url


def _login(database_url: str, email: str, password: str) -> Principal | None:
    async def attempt() -> Principal | None:
        engine = create_engine(database_url)
        auth = JwtAuthenticator(sessions=create_sessionmaker(engine), secret=TEST_SECRET)
        try:
            return await auth.authenticate(
                await auth.login(email=email, password=password, client="cli-test")
            )
        except InvalidCredentials:
            return None
        finally:
            await engine.dispose()

    return asyncio.run(attempt())


def _answers(monkeypatch: pytest.MonkeyPatch, *answers: str) -> None:
    replies: Iterator[str] = iter(answers)
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(replies))


def test_db_upgrade_brings_a_new_database_to_the_newest_revision(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "upgrade"]) == 0

    (head,) = ScriptDirectory.from_config(alembic_config()).get_heads()
    assert asyncio.run(current_revisions(db)) == (head,)
    assert f"is at {head}" in capsys.readouterr().out


def test_users_create_makes_an_account_that_can_log_in(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["users", "create", "Ada@Example.com", "--password", "pw-for-ada", "--admin"]) == 0

    assert capsys.readouterr().out.strip() == "Created admin ada@example.com"
    user = _login(db, "ada@example.com", "pw-for-ada")
    assert user is not None and user.is_admin


def test_users_create_asks_for_the_password_twice(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _answers(monkeypatch, "typed secret", "typed secret")

    assert main(["users", "create", "ada@example.com"]) == 0

    user = _login(db, "ada@example.com", "typed secret")
    assert user is not None and not user.is_admin


def test_two_different_passwords_create_nothing(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _answers(monkeypatch, "one", "two")

    assert main(["users", "create", "ada@example.com"]) == 1

    assert "do not match" in capsys.readouterr().err
    main(["db", "upgrade"])
    assert _login(db, "ada@example.com", "one") is None


def test_an_existing_email_is_refused(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["users", "create", "ada@example.com", "--password", "first one"])

    assert main(["users", "create", "ADA@example.com", "--password", "second one"]) == 1

    assert "already exists" in capsys.readouterr().err
    assert _login(db, "ada@example.com", "first one") is not None


def test_a_bad_email_is_refused(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["users", "create", "not-an-email", "--password", "long enough"]) == 1

    assert "is not an email address" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short", "at least 8 characters"),
        ("Password1", "most common"),
        ("aaaaaaaaaa", "one character repeated"),
        ("ada@example.com", "not be the email"),
    ],
)
def test_a_weak_password_is_refused_with_the_reason(
    db: str, capsys: pytest.CaptureFixture[str], password: str, reason: str
) -> None:
    assert main(["users", "create", "ada@example.com", "--password", password]) == 1

    assert reason in capsys.readouterr().err
    main(["db", "upgrade"])
    assert _login(db, "ada@example.com", password) is None


def test_ensure_demo_creates_the_demo_account_once(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["users", "ensure-demo"]) == 0
    assert main(["users", "ensure-demo"]) == 0

    first, second = capsys.readouterr().out.strip().splitlines()
    assert first == "Demo account: demo@example.com / demo (created)"
    assert second.startswith("Demo account: demo@example.com / demo (already there")
    assert _login(db, "demo@example.com", "demo") is not None


def test_an_unreachable_database_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"postgresql+asyncpg://nobody@127.0.0.1:{free_port()}/x")

    assert main(["db", "upgrade"]) == 1

    assert "database unavailable" in capsys.readouterr().err


def test_schema_still_prints_the_wire_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0

    assert "ChatRequest" in json.loads(capsys.readouterr().out)["$defs"]


def test_serve_migrates_and_serves_the_demo_account(sqlite_url: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PAGECHAT_SECRET"}
    env |= {"DATABASE_URL": sqlite_url, "PAGECHAT_STATE_DIR": str(tmp_path / "state")}
    subprocess.run(
        [sys.executable, "-m", "pagechat.cli", "users", "ensure-demo"], env=env, check=True
    )
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pagechat.cli", "serve", "--port", str(port)], env=env, cwd=tmp_path
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as client:
            for _ in range(300):
                assert proc.poll() is None, "pagechat serve exited"
                try:
                    client.get("/api/health")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            login = client.post(
                "/api/auth/login", json={"email": "demo@example.com", "password": "demo"}
            )
            headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
            me = client.get("/api/auth/me", headers=headers)
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    assert me.json()["email"] == "demo@example.com"


def test_an_app_module_that_cannot_be_imported_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--app", "no_such_package.app:create_app"]) == 1

    err = capsys.readouterr().err
    assert "cannot import the app module 'no_such_package.app'" in err
    assert "PYTHONPATH" in err


def test_an_app_module_beside_the_caller_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Not installed, not on PYTHONPATH: in the directory `pagechat` runs from, as with uvicorn.
    (tmp_path / "beside_app.py").write_text("VERSION_LOCATIONS = ()\ndef create_app(): ...\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path}/pagechat.db")
    monkeypatch.setattr(sys, "path", list(sys.path))

    assert main(["db", "upgrade", "--app", "beside_app:create_app"]) == 0
    assert "is at" in capsys.readouterr().out


async def _rated_answer(database_url: str) -> str:
    """Alice's conversation: a regenerated answer she rated down, with a tool call."""
    engine = create_engine(database_url)
    await upgrade_async(engine)
    sessions = create_sessionmaker(engine)
    async with sessions.begin() as session:
        user = await create_user(
            session=session, email="alice@example.com", password_hash=hash_password("pw-alice-1")
        )
    alice = principal_of(user)
    store = SqlChatStore(sessions)
    try:
        ids = await store.begin_turn(user=alice, conversation_id=None, message="Find CRISPR papers")
        await store.finish_turn(
            assistant_message_id=ids.assistant_message_id,
            record=AssistantRecord(content="First try", status="complete", model="scripted/a"),
        )
        branch = await store.begin_branch(
            user=alice,
            conversation_id=ids.conversation_id,
            message_id=ids.assistant_message_id,
            kind="regenerate",
            run_id="r2",
        )
        entry = ToolHistoryEntry(tool_name="search", input={"q": "CRISPR"}, output="3 found")
        await store.finish_turn(
            assistant_message_id=branch.assistant_message_id,
            record=AssistantRecord(
                content="Found [[tool:0]] three.",
                status="complete",
                tool_history=[entry],
                context_audit="Page: reports",
                model="scripted/b",
            ),
        )
        await store.set_feedback(
            user=alice,
            conversation_id=ids.conversation_id,
            message_id=branch.assistant_message_id,
            rating="down",
            comment="Too few.",
        )
        return branch.assistant_message_id
    finally:
        await store.aclose()
        await engine.dispose()


def test_feedback_export_writes_jsonl_with_the_path_the_tools_and_the_model(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer_id = asyncio.run(_rated_answer(db))
    out = tmp_path / "feedback.jsonl"

    assert main(["feedback", "export", "--output", str(out)]) == 0

    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["message_id"] == answer_id
    assert (record["rating"], record["comment"], record["user"]) == (
        "down",
        "Too few.",
        "alice@example.com",
    )
    assert [(m["role"], m["content"]) for m in record["messages"]] == [
        ("user", "Find CRISPR papers"),
        ("assistant", "Found [[tool:0]] three."),
    ]
    assert record["tools"][0]["tool_name"] == "search"
    assert record["model"] == "scripted/b"
    assert record["page_context"] == "Page: reports"
    assert "Exported 1 feedback records" in capsys.readouterr().err


async def _used_tokens(database_url: str) -> None:
    """Two of Alice's answers on two models, with prompt-cache counts, and a title call."""
    engine = create_engine(database_url)
    await upgrade_async(engine)
    sessions = create_sessionmaker(engine)
    async with sessions.begin() as session:
        user = await create_user(
            session=session, email="alice@example.com", password_hash=hash_password("pw-alice-1")
        )
    store = SqlChatStore(sessions)
    try:
        for model, tokens in (("anthropic/a", (100, 10, 80, 5)), ("openai/b", (50, 5, 0, 0))):
            ids = await store.begin_turn(
                user=principal_of(user), conversation_id=None, message="Hi"
            )
            usage = Usage(
                input_tokens=tokens[0],
                output_tokens=tokens[1],
                cache_read_tokens=tokens[2],
                cache_write_tokens=tokens[3],
            )
            await store.finish_turn(
                assistant_message_id=ids.assistant_message_id,
                record=AssistantRecord(
                    content="Hello", status="complete", model=model, usage=usage
                ),
            )
        await store.record_title_usage(
            user=principal_of(user),
            model="anthropic/a",
            usage=Usage(input_tokens=20, output_tokens=3),
        )
    finally:
        await store.aclose()
        await engine.dispose()


def test_usage_prints_tokens_by_user_and_model_as_csv_or_json(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_used_tokens(db))

    assert main(["usage", "--by", "user,model"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "user,model,answers,title_calls,input_tokens,output_tokens,cache_read_tokens,"
        "cache_write_tokens",
        "alice@example.com,anthropic/a,1,1,120,13,80,5",
        "alice@example.com,openai/b,1,0,50,5,0,0",
    ]
    assert main(["usage", "--by", "user", "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["user"], row["model"], row["answers"], row["cache_read_tokens"]) == (
        "alice@example.com",
        None,
        2,
        80,
    )
    assert main(["usage", "--by", "purpose"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "answer,2,0,150,15,80,5",
        "title,0,1,20,3,0,0",
    ]


def test_usage_refuses_an_unknown_grouping(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["usage", "--by", "colour"])
    assert "a comma-separated list of user, model, day" in capsys.readouterr().err
