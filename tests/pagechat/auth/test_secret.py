from __future__ import annotations

import stat
from pathlib import Path

import pytest

from pagechat.auth.secret import SECRET_FILE, resolve_secret
from pagechat.auth.tokens import WeakSecret


def test_a_development_secret_is_made_once_and_kept_private(tmp_path: Path) -> None:
    state = tmp_path / ".pagechat"

    first = resolve_secret(secret=None, state_dir=state)
    second = resolve_secret(secret=None, state_dir=state)

    assert first == second
    assert len(first) >= 32
    mode = stat.S_IMODE((state / SECRET_FILE).stat().st_mode)
    assert mode == 0o600


def test_a_configured_secret_wins_and_writes_nothing(tmp_path: Path) -> None:
    configured = "c" * 40

    assert resolve_secret(secret=configured, state_dir=tmp_path / "state") == configured
    assert not (tmp_path / "state").exists()


def test_a_short_configured_secret_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WeakSecret, match="at least 32 bytes"):
        resolve_secret(secret="hunter2", state_dir=tmp_path)
