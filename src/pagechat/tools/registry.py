"""The global tool registry: tools offered on every page."""

from __future__ import annotations

from collections.abc import Mapping

from .types import ToolConfig

__all__ = [
    "clear_tools",
    "get_tool",
    "global_tools",
    "register_tool",
    "registered_tools",
    "restore_tools",
    "unregister_tool",
]

_TOOLS: dict[str, ToolConfig] = {}


def register_tool(tool: ToolConfig) -> ToolConfig:
    """Offer `tool` on every page. Registering the same config again is a no-op."""
    existing = _TOOLS.get(tool.name)
    if existing is not None and existing != tool:
        raise ValueError(f"a different tool named {tool.name!r} is already registered")
    _TOOLS[tool.name] = tool
    return tool


def unregister_tool(name: str) -> None:
    """Stop offering the tool of that name everywhere (no error if there is none)."""
    _TOOLS.pop(name, None)


def get_tool(name: str) -> ToolConfig | None:
    """The registered tool of that name, if any."""
    return _TOOLS.get(name)


def global_tools() -> list[ToolConfig]:
    """The tools offered on every page, in the order they were registered."""
    return list(_TOOLS.values())


def clear_tools() -> None:
    """Forget every registered tool (for tests)."""
    _TOOLS.clear()


def registered_tools() -> dict[str, ToolConfig]:
    """A copy of the registered tools by name, for `restore_tools`."""
    return dict(_TOOLS)


def restore_tools(tools: Mapping[str, ToolConfig]) -> None:
    """Make `tools` (from `registered_tools`) the registered tools again, and only them."""
    _TOOLS.clear()
    _TOOLS.update(tools)
