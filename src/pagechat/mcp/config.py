"""Which MCP servers an app uses: in code, or in the JSON file Claude Desktop and IDEs use."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["McpConfigError", "McpServer", "load_mcp_config"]

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class McpConfigError(ValueError):
    """The MCP server list is not usable (the operator's mistake); the message says why."""


@dataclass(frozen=True)
class McpServer:
    """One MCP server: a command spoken to over stdio, or a streamable-HTTP URL.

    Its tools join the tool registry under their own names, or `prefix + name`
    when two servers (or a server and the app) would otherwise clash.
    """

    name: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = 60.0
    """Seconds one tool call may take before it is cancelled and the model told so."""
    connect_timeout: float = 15.0
    """Seconds to wait for the server to be ready before a call is answered as unavailable."""
    prefix: str = ""
    require_approval: bool | tuple[str, ...] = False
    """Ask the user before each call (chat/approvals.py): True for every tool of the
    server, or the names (as the server gives them, before `prefix`) of those that need it."""

    def needs_approval(self, tool: str) -> bool:
        """Whether a call of this server's `tool` waits for the user's approval."""
        required = self.require_approval
        return required if isinstance(required, bool) else tool in required

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise McpConfigError(f"MCP server name {self.name!r}: use 1-32 letters, digits, _ or -")
        if (self.command is None) == (self.url is None):
            raise McpConfigError(f"MCP server {self.name!r}: give either a command or a url")
        if self.url is not None and not self.url.startswith(("http://", "https://")):
            raise McpConfigError(f"MCP server {self.name!r}: the url must be http(s)")
        if self.timeout <= 0 or self.connect_timeout <= 0:
            raise McpConfigError(f"MCP server {self.name!r}: timeouts must be positive")
        if not isinstance(self.require_approval, bool):
            if isinstance(self.require_approval, str) or not all(
                isinstance(t, str) for t in self.require_approval
            ):
                raise McpConfigError(
                    f"MCP server {self.name!r}: requireApproval must be true, false "
                    "or a list of tool names"
                )
            object.__setattr__(self, "require_approval", tuple(self.require_approval))


def _server(name: str, raw: Any) -> McpServer:
    if not isinstance(raw, dict):
        raise McpConfigError(f"MCP server {name!r}: expected an object")
    args = raw.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise McpConfigError(f"MCP server {name!r}: args must be a list of strings")
    for key in ("env", "headers"):
        value = raw.get(key, {})
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise McpConfigError(f"MCP server {name!r}: {key} must map strings to strings")
    approval = raw.get("requireApproval", False)
    if not isinstance(approval, bool | list):
        raise McpConfigError(
            f"MCP server {name!r}: requireApproval must be true, false or a list of tool names"
        )
    try:
        return McpServer(
            name=name,
            command=raw.get("command"),
            args=tuple(args),
            env=raw.get("env"),
            cwd=raw.get("cwd"),
            url=raw.get("url"),
            headers=raw.get("headers", {}),
            timeout=float(raw.get("timeout", 60.0)),
            connect_timeout=float(raw.get("connectTimeout", 15.0)),
            prefix=str(raw.get("prefix", "")),
            require_approval=approval if isinstance(approval, bool) else tuple(approval),
        )
    except (TypeError, ValueError) as exc:
        if isinstance(exc, McpConfigError):
            raise
        raise McpConfigError(f"MCP server {name!r}: {exc}") from None


def load_mcp_config(path: Path) -> list[McpServer]:
    """Read `{"mcpServers": {name: {command, args, env} | {url, headers}}}` (with
    `timeout`, `connectTimeout`, `prefix` and `requireApproval` besides)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise McpConfigError(f"cannot read the MCP config {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise McpConfigError(f"the MCP config {path} is not valid JSON: {exc}") from None
    servers = document.get("mcpServers") if isinstance(document, dict) else None
    if not isinstance(servers, dict):
        raise McpConfigError(f'the MCP config {path} has no "mcpServers" object')
    return [_server(name, raw) for name, raw in servers.items()]
