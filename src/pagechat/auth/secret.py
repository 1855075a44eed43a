"""The token signing secret: PAGECHAT_SECRET, or one generated once for development.

The generated secret is kept in `state_dir/secret` (readable by its owner
only), so tokens survive a restart without anyone configuring anything.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from .tokens import check_secret

__all__ = ["SECRET_FILE", "resolve_secret"]

SECRET_FILE = "secret"


def _read(path: Path) -> str:
    value = path.read_text(encoding="utf-8").strip()
    return check_secret(value)


def resolve_secret(*, secret: str | None, state_dir: Path) -> str:
    """`secret` when set (it must be long enough), else the one kept in `state_dir`."""
    if secret:
        return check_secret(secret)
    path = state_dir / SECRET_FILE
    if path.exists():
        return _read(path)
    state_dir.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(48)
    try:
        # O_EXCL: when two processes start together, one writes and both read its value.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(path)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(value + "\n")
    return value
