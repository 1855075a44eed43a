"""`pagechat users disable|enable` and `pagechat api-keys create|list|revoke`."""

from __future__ import annotations

import asyncio

import pytest

from pagechat.auth import AccountDisabled, JwtAuthenticator
from pagechat.cli import main
from pagechat.identity import Principal
from pagechat.store import create_engine, create_sessionmaker
from tests.conftest import TEST_SECRET

EMAIL = "ada@example.com"
PASSWORD = "a long enough passphrase"


@pytest.fixture
def db(database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["users", "create", EMAIL, "--password", PASSWORD]) == 0
    return database_url


def _authenticate(database_url: str, token: str) -> Principal | None:
    async def attempt() -> Principal | None:
        engine = create_engine(database_url)
        try:
            auth = JwtAuthenticator(sessions=create_sessionmaker(engine), secret=TEST_SECRET)
            return await auth.authenticate(token)
        finally:
            await engine.dispose()

    return asyncio.run(attempt())


def _login(database_url: str) -> str:
    async def attempt() -> str:
        engine = create_engine(database_url)
        try:
            auth = JwtAuthenticator(sessions=create_sessionmaker(engine), secret=TEST_SECRET)
            return await auth.login(email=EMAIL, password=PASSWORD, client="cli-test")
        finally:
            await engine.dispose()

    return asyncio.run(attempt())


def test_an_api_key_is_printed_once_works_and_stops_when_revoked(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["api-keys", "create", EMAIL, "nightly export"]) == 0
    made = capsys.readouterr()
    key = made.out.strip()
    assert key.startswith("pck_") and "shown this once" in made.err
    user = _authenticate(db, key)
    assert user is not None and user.email == EMAIL

    assert main(["api-keys", "list", EMAIL]) == 0
    listed = capsys.readouterr().out
    assert "nightly export" in listed and key[:8] in listed and key not in listed
    key_id = listed.split()[0]

    assert main(["api-keys", "revoke", key_id]) == 0
    assert _authenticate(db, key) is None
    assert main(["api-keys", "revoke", key_id]) == 1
    assert f"no API key {key_id}" in capsys.readouterr().err


def test_an_api_key_for_nobody_or_with_a_long_name_is_refused(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["api-keys", "create", "nobody@example.com", "x"]) == 1
    assert main(["api-keys", "create", EMAIL, "x" * 101]) == 1

    err = capsys.readouterr().err
    assert "no account for nobody@example.com" in err and "1 to 100 characters" in err


def test_disable_ends_the_sessions_and_refuses_login_until_enable(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    token = _login(db)
    capsys.readouterr()

    assert main(["users", "disable", EMAIL.upper()]) == 0

    assert "1 sessions ended" in capsys.readouterr().out
    assert _authenticate(db, token) is None
    with pytest.raises(AccountDisabled):
        _login(db)
    assert main(["users", "enable", EMAIL]) == 0
    assert _authenticate(db, _login(db)) is not None
    assert _authenticate(db, token) is None  # an ended session stays ended


def test_disable_of_an_unknown_account_says_so(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["users", "disable", "nobody@example.com"]) == 1
    assert main(["users", "enable", "nobody@example.com"]) == 1

    assert capsys.readouterr().err.count("no account for nobody@example.com") == 2
