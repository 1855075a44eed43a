"""MCP servers as tools: an app lists servers, their tools join the registry.

The configuration is plain data and always importable; the parts that speak MCP need
the `mcp` extra and are imported on first use (`pagechat.extras`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..extras import require_extra
from .config import McpConfigError, McpServer, load_mcp_config

if TYPE_CHECKING:
    from .connection import McpConnection, McpToolFailed, McpUnavailable
    from .tools import McpTools

__all__ = [
    "McpConfigError",
    "McpConnection",
    "McpServer",
    "McpToolFailed",
    "McpTools",
    "McpUnavailable",
    "load_mcp_config",
]

_SDK_NAMES = {
    "McpConnection": "connection",
    "McpToolFailed": "connection",
    "McpUnavailable": "connection",
    "McpTools": "tools",
}


def __getattr__(name: str) -> Any:
    module = _SDK_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    require_extra("mcp", f"pagechat.mcp.{name}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
