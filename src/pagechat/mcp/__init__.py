"""MCP servers as tools: an app lists servers, their tools join the registry."""

from .config import McpConfigError, McpServer, load_mcp_config
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
