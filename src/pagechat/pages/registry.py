"""The page registry: page modules register themselves when they are imported.

An app lists its page modules once and passes the list to `load_pages` at start.
A page nobody registered — or no page at all — gets a default config, so a new
or misspelt `current_page` from the browser never breaks a turn.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable

from ..tools.types import ToolConfig
from .config import (
    DEFAULT_CONTEXT_BUDGET,
    ClientAction,
    ContextBuilder,
    PageConfig,
    PayloadConfig,
    ServerAction,
    TabConfig,
)

__all__ = ["clear_pages", "get_page", "get_server_action", "load_pages", "register_page"]

logger = logging.getLogger(__name__)

_PAGES: dict[str, PageConfig] = {}


def register_page(
    page: str,
    *,
    payloads: Iterable[PayloadConfig] = (),
    context_builder: ContextBuilder | None = None,
    client_actions: Iterable[ClientAction] = (),
    server_actions: Iterable[ServerAction] = (),
    tools: Iterable[ToolConfig] = (),
    tabs: Iterable[TabConfig] = (),
    instructions: str = "",
    context_budget: int = DEFAULT_CONTEXT_BUDGET,
) -> PageConfig:
    """Register (or replace) the config of `page`; ValueError when it is inconsistent."""
    if not page:
        raise ValueError("a page needs a name")
    config = PageConfig(
        page=page,
        payloads=tuple(payloads),
        context_builder=context_builder,
        client_actions=tuple(client_actions),
        server_actions=tuple(server_actions),
        tools=tuple(tools),
        tabs=tuple(tabs),
        instructions=instructions,
        context_budget=context_budget,
    )
    previous = _PAGES.get(page)
    if previous is not None and previous != config:
        # A module reloaded in development lands here too, so this is no error.
        logger.warning("page %r registered again; the new config replaces the old one", page)
    _PAGES[page] = config
    return config


def get_page(page: str | None) -> PageConfig:
    """The config of `page`; a default one (no payloads, actions or own tools) when unknown."""
    if page:
        config = _PAGES.get(page)
        if config is not None:
            return config
        logger.debug("no config registered for page %r; using the default", page)
    return PageConfig(page=page or "")


def get_server_action(page: str | None, action: str) -> ServerAction | None:
    """The server action `action` of `page`, or None when the page has none by that name."""
    return get_page(page).server_action(action)


def load_pages(modules: Iterable[str]) -> None:
    """Import the app's page modules (dotted names); each registers its page(s)."""
    for name in modules:
        importlib.import_module(name)


def clear_pages() -> None:
    """Forget every registered page (for tests)."""
    _PAGES.clear()
