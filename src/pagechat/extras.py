"""The optional parts of pagechat and the extra that installs each.

`pip install pagechat` is what a single-process app on SQLite needs. Redis, PostgreSQL,
MCP, AG-UI and OpenTelemetry come with extras; a setting that asks for one of them while
its extra is missing fails when the app is built, with a message that names the extra,
not with an ImportError from deep inside a request.
"""

from __future__ import annotations

import importlib.util
from typing import Literal

__all__ = ["EXTRAS", "Extra", "MissingExtra", "has_extra", "require_extra"]

Extra = Literal["postgres", "redis", "mcp", "agui", "otel"]
"""The name of an optional part, as in `pip install 'pagechat[<name>]'`."""

EXTRAS: dict[Extra, str] = {
    "postgres": "asyncpg",
    "redis": "redis",
    "mcp": "mcp",
    "agui": "ag_ui",
    "otel": "opentelemetry.sdk",
}
"""Each extra and a module it installs: present when that module can be found."""


class MissingExtra(RuntimeError):
    """A configured part needs an extra that is not installed; the message says which."""

    def __init__(self, extra: Extra, what: str) -> None:
        super().__init__(
            f"{what} needs pagechat's {extra!r} extra: pip install 'pagechat[{extra}]'"
        )
        self.extra = extra


def has_extra(extra: Extra) -> bool:
    """Whether the extra's packages are installed."""
    try:
        return importlib.util.find_spec(EXTRAS[extra]) is not None
    except ModuleNotFoundError:  # a dotted name whose parent package is missing
        return False


def require_extra(extra: Extra, what: str) -> None:
    """Raise `MissingExtra` naming `extra` when it is not installed; `what` needs it."""
    if not has_extra(extra):
        raise MissingExtra(extra, what)
