from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jwt
import pytest

from pagechat.auth.tokens import WeakSecret, create_access_token, read_access_token

SECRET = "k" * 32


def test_a_token_names_its_user() -> None:
    token = create_access_token(user_id="u1", secret=SECRET, ttl=timedelta(minutes=5))

    assert read_access_token(token, secret=SECRET) == "u1"


def test_an_expired_token_is_refused() -> None:
    issued = datetime.now(UTC) - timedelta(hours=2)
    token = create_access_token(user_id="u1", secret=SECRET, ttl=timedelta(hours=1), now=issued)

    assert read_access_token(token, secret=SECRET) is None


def test_a_token_signed_with_another_secret_is_refused() -> None:
    token = create_access_token(user_id="u1", secret="z" * 32, ttl=timedelta(minutes=5))

    assert read_access_token(token, secret=SECRET) is None


def test_an_unsigned_token_is_refused() -> None:
    exp = datetime.now(UTC) + timedelta(minutes=5)
    token = jwt.encode({"sub": "u1", "exp": exp}, key="", algorithm="none")

    assert read_access_token(token, secret=SECRET) is None


def test_a_token_without_expiry_is_refused() -> None:
    token = jwt.encode({"sub": "u1"}, SECRET, algorithm="HS256")

    assert read_access_token(token, secret=SECRET) is None


@pytest.mark.parametrize("token", ["", "garbage", "a.b.c"])
def test_garbage_is_refused(token: str) -> None:
    assert read_access_token(token, secret=SECRET) is None


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(WeakSecret):
        create_access_token(user_id="u1", secret="short", ttl=timedelta(minutes=5))
