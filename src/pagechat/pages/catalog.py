"""The payload types an app declares, for a client that renders cards from their schemas.

A type is declared by a page's `PayloadConfig`, or by a tool (the page's own, a tab's, or
a global one) whose `ToolConfig.payload_type` names it. Its schema is the first one
declared: the pages' payloads first (pages by name), then their tools, then global tools.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..tools.registry import global_tools
from ..tools.types import ToolConfig
from .config import PageConfig
from .registry import registered_pages

__all__ = ["PayloadType", "payload_types"]


@dataclass
class PayloadType:
    """One payload type: its data's JSON Schema, where it is declared, how pages accept it."""

    type: str
    schema: dict[str, Any] | None = None
    pages: list[str] = field(default_factory=list)
    """The pages that declare it (by a payload or one of their tools), sorted."""
    accept_actions: dict[str, str] = field(default_factory=dict)
    """Per page, the server action that accepting it there runs with its data."""

    @property
    def title(self) -> str | None:
        """The schema's `title`, if it has one."""
        title = (self.schema or {}).get("title")
        return title if isinstance(title, str) and title else None


def _page_tools(page: PageConfig) -> list[ToolConfig]:
    return [*page.tools, *(tool for tab in page.tabs for tool in tab.tools)]


def payload_types() -> dict[str, PayloadType]:
    """Every payload type the registered pages and global tools declare, by type."""
    found: dict[str, PayloadType] = {}

    def declare(type_: str, schema: dict[str, Any] | None, page: str | None) -> PayloadType:
        entry = found.setdefault(type_, PayloadType(type_))
        if entry.schema is None:
            entry.schema = schema
        if page is not None and page not in entry.pages:
            entry.pages.append(page)
        return entry

    pages = sorted(registered_pages().items())
    for name, page in pages:
        for payload in page.payloads:
            entry = declare(payload.type, payload.schema, name)
            if payload.accept_action is not None:
                entry.accept_actions[name] = payload.accept_action
    for name, page in pages:
        for tool in _page_tools(page):
            if tool.payload_type:
                declare(tool.payload_type, tool.payload_schema, name)
    for tool in global_tools():
        if tool.payload_type:
            declare(tool.payload_type, tool.payload_schema, None)
    return found
