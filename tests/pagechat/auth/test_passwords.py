from __future__ import annotations

from pagechat.auth.passwords import hash_password, needs_rehash, verify_password


def test_a_password_verifies_against_its_hash_only() -> None:
    stored = hash_password("s3cret")

    assert stored.startswith("$argon2id$")
    assert "s3cret" not in stored
    assert verify_password(stored, "s3cret")
    assert not verify_password(stored, "s3cret ")
    assert not needs_rehash(stored)


def test_the_same_password_hashes_differently_each_time() -> None:
    assert hash_password("same") != hash_password("same")


def test_a_corrupt_hash_verifies_nothing() -> None:
    assert not verify_password("not-a-hash", "anything")
    assert not verify_password("", "")
