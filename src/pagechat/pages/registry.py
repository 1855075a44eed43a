"""The page registry: page modules register themselves when they are imported.

An app lists its page modules once and passes the list to `load_pages` at start.
`load_pages` remembers what each module registered, so an app built again in the same
process gets its pages back after they were forgotten (`restore_pages`, which
`pagechat.testing.running_app` uses so that one app's pages never leak into the next),
though Python imports a module only once.
No page at all (no `current_page`, as plain pagechat without an app is used) is the
page-less default config: no payloads, actions or own tools. A page name nobody
registered is `UnknownPage` — the routes answer 400 with the known pages — never a
silent fallback that would hide a misspelt name behind a page without its tools.
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Iterable, Mapping
from typing import Any

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

__all__ = [
    "UnknownPage",
    "clear_pages",
    "get_page",
    "get_server_action",
    "load_pages",
    "page_in",
    "page_names",
    "register_page",
    "registered_pages",
    "restore_pages",
]

logger = logging.getLogger(__name__)

_PAGES: dict[str, PageConfig] = {}
# The pages each module registered (the module that called register_page, and every module
# load_pages was importing at the time), for load_pages to register again.
_BY_MODULE: dict[str, list[PageConfig]] = {}
_LOADING: list[str] = []


class UnknownPage(LookupError):
    """A request named a page nobody registered (the caller's mistake)."""

    def __init__(self, page: str, known: Iterable[str]) -> None:
        self.page = page
        self.known = tuple(known)
        super().__init__(
            f"Unknown page {page[:100]!r}; known pages: {', '.join(self.known) or 'none'}"
        )


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
    _check_accept_actions(config)
    previous = _PAGES.get(page)
    if previous is not None and previous != config:
        # A module reloaded in development lands here too, so this is no error.
        logger.warning("page %r registered again; the new config replaces the old one", page)
    _PAGES[page] = config
    caller = sys._getframe(1).f_globals.get("__name__")
    for module in {*_LOADING, *([caller] if isinstance(caller, str) else [])}:
        _BY_MODULE.setdefault(module, []).append(config)
    return config


def _check_accept_actions(config: PageConfig) -> None:
    """Each payload's `accept_action` must be one of the page's own server actions."""
    for payload in config.payloads:
        action = payload.accept_action
        if action is not None and config.server_action(action) is None:
            known = ", ".join(a.action for a in config.server_actions) or "none"
            raise ValueError(
                f"page {config.page!r}: payload {payload.type!r} is accepted by {action!r},"
                f" which is not one of its server actions ({known})"
            )


def get_page(page: str | None) -> PageConfig:
    """The config of `page`; no page (None or "") is the page-less default config.

    Raises UnknownPage when no page of that name is registered.
    """
    if not page:
        return PageConfig(page="")
    config = _PAGES.get(page)
    if config is None:
        raise UnknownPage(page, page_names())
    return config


def page_in(context: Mapping[str, Any]) -> PageConfig:
    """The page a request's `context["current_page"]` names (see get_page).

    Anything but a string or null there is an unknown page too.
    """
    name = context.get("current_page")
    if name is not None and not isinstance(name, str):
        raise UnknownPage(str(name), page_names())
    return get_page(name)


def page_names() -> list[str]:
    """The registered pages' names, sorted."""
    return sorted(_PAGES)


def get_server_action(page: str | None, action: str) -> ServerAction | None:
    """The server action `action` of `page`, or None when the page has none by that name."""
    return get_page(page).server_action(action)


def load_pages(modules: Iterable[str]) -> None:
    """Import the app's page modules (dotted names); each registers its page(s).

    A module imported before registers again what it registered then, where no page of
    that name is registered now.
    """
    for name in modules:
        _LOADING.append(name)
        try:
            importlib.import_module(name)
        finally:
            _LOADING.pop()
        for config in _BY_MODULE.get(name, ()):
            _PAGES.setdefault(config.page, config)


def clear_pages() -> None:
    """Forget every registered page (for tests)."""
    _PAGES.clear()


def registered_pages() -> dict[str, PageConfig]:
    """A copy of the registered pages by name, for `restore_pages`."""
    return dict(_PAGES)


def restore_pages(pages: Mapping[str, PageConfig]) -> None:
    """Make `pages` (from `registered_pages`) the registered pages again, and only them."""
    _PAGES.clear()
    _PAGES.update(pages)
