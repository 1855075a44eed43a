"""What a page is: its payloads, actions, tools, tabs and persona.

All of it is plain frozen data, checked once when it is built, so a mistake in
a page module fails at import (when the app starts), not in a user's turn.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import jsonschema

from ..payloads import Payload
from ..tools.types import ToolConfig
from .stream import check_markers

__all__ = [
    "CLOSE_CHAT",
    "DEFAULT_CONTEXT_BUDGET",
    "RESERVED_MARKERS",
    "SUGGESTED_ACTIONS_MARKER",
    "SUGGESTED_VALUES_MARKER",
    "ActionContext",
    "ClientAction",
    "ContextBuilder",
    "PageConfig",
    "PayloadConfig",
    "ServerAction",
    "ServerActionHandler",
    "TabConfig",
]

DEFAULT_CONTEXT_BUDGET = 8000
"""Characters of page context a page may put into the system prompt by default."""

SUGGESTED_VALUES_MARKER = "SUGGESTED_VALUES:"
SUGGESTED_ACTIONS_MARKER = "SUGGESTED_ACTIONS:"
RESERVED_MARKERS = (SUGGESTED_VALUES_MARKER, SUGGESTED_ACTIONS_MARKER)
"""Markers every page understands; a payload may not claim them."""

ContextBuilder = Callable[[dict[str, Any]], str]
"""Turns the page state the browser sent (`ChatRequest.context`) into prompt text."""


@dataclass(frozen=True, kw_only=True)
class PayloadConfig:
    """Structured output the model may write as `MARKER: {json}`: the low-level form,
    keyword-only. From a `Payload` model, `PayloadConfig.for_model` is the usual way.

    `type` names the payload (the card the browser shows); `parse_marker` is the marker
    the model writes before the JSON, and `llm_instructions` tell it when and how.
    `schema` (JSON Schema) validates the data; `None` accepts any JSON.
    `relevant_tabs` limits the payload to those tabs; `None` offers it on all.
    `state_key` declares the payload a change of the page's shared state: AG-UI
    clients get a STATE_DELTA setting that top-level key to the payload's data.
    `accept_action` names a server action of the page that accepting the payload runs
    with its data (how a page with no front-end code of its own accepts it;
    `register_page` checks that the page has it).
    """

    type: str
    parse_marker: str
    llm_instructions: str
    schema: dict[str, Any] | None = None
    relevant_tabs: tuple[str, ...] | None = None
    state_key: str | None = None
    accept_action: str | None = None

    def __post_init__(self) -> None:
        if not self.type:
            raise ValueError("a payload needs a type")
        check_markers([self.parse_marker])
        if self.parse_marker in RESERVED_MARKERS:
            raise ValueError(f"{self.parse_marker!r} is reserved")
        if self.schema is not None:
            jsonschema.validators.validator_for(self.schema).check_schema(self.schema)
        if self.state_key is not None and not self.state_key:
            raise ValueError("a payload's state_key must not be empty")
        if self.accept_action is not None and not self.accept_action:
            raise ValueError("a payload's accept_action must not be empty")
        if self.relevant_tabs is not None and not isinstance(self.relevant_tabs, tuple):
            object.__setattr__(self, "relevant_tabs", tuple(self.relevant_tabs))

    @classmethod
    def for_model(
        cls,
        model: builtins.type[Payload],
        *,
        marker: str,
        instructions: str,
        relevant_tabs: Iterable[str] | None = None,
        state_key: str | None = None,
        accept_action: str | None = None,
    ) -> PayloadConfig:
        """The payload whose type (`payload_type`) and schema come from `model`."""
        return cls(
            type=model.payload_type,
            parse_marker=marker,
            llm_instructions=instructions,
            schema=model.payload_schema(),
            relevant_tabs=tuple(relevant_tabs) if relevant_tabs is not None else None,
            state_key=state_key,
            accept_action=accept_action,
        )

    def offered_on(self, tab: str | None) -> bool:
        """Whether the model is told about this payload on `tab` (`relevant_tabs`)."""
        return self.relevant_tabs is None or (tab is not None and tab in self.relevant_tabs)


@dataclass(frozen=True)
class ClientAction:
    """An action the browser runs (`handler: "client"`); `parameters` go in `data`."""

    action: str
    description: str
    parameters: tuple[str, ...] = ()


CLOSE_CHAT = ClientAction("close_chat", "Close the chat tray.")
"""The one client action every page has."""


@dataclass(frozen=True)
class ActionContext:
    """Who runs a server action, and where."""

    user_id: str | None
    is_admin: bool
    conversation_id: str | None
    page_context: dict[str, Any]
    session: Any = None


ServerActionHandler = Callable[[dict[str, Any], ActionContext], Any]
"""`(data, context)` → data, or an object with `message` (and `data`, `ok`);
plain or async."""


@dataclass(frozen=True)
class ServerAction:
    """An action the server runs when the user clicks its button (`handler: "server"`).

    `data_schema` (JSON Schema) validates the button's `data` before the handler runs.
    """

    action: str
    description: str
    handler: ServerActionHandler
    data_schema: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if not self.action:
            raise ValueError("a server action needs a name")
        if self.data_schema is not None:
            jsonschema.validators.validator_for(self.data_schema).check_schema(self.data_schema)


@dataclass(frozen=True)
class TabConfig:
    """A tab of a page: tools offered only there, and instructions for it.

    Payloads are limited to tabs by their own `relevant_tabs`.
    """

    name: str
    tools: tuple[ToolConfig, ...] = ()
    instructions: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a tab needs a name")
        object.__setattr__(self, "tools", tuple(self.tools))
        _check_unique("tool", [t.name for t in self.tools], where=f"tab {self.name!r}")


@dataclass(frozen=True)
class PageConfig:
    """Everything the chat knows about one page of the app.

    `context_builder=None` shows the model the page state as JSON; a page that
    wants no context passes a builder that returns "".
    """

    page: str
    payloads: tuple[PayloadConfig, ...] = ()
    context_builder: ContextBuilder | None = None
    client_actions: tuple[ClientAction, ...] = ()
    server_actions: tuple[ServerAction, ...] = ()
    tools: tuple[ToolConfig, ...] = ()
    tabs: tuple[TabConfig, ...] = ()
    instructions: str = ""
    context_budget: int = DEFAULT_CONTEXT_BUDGET

    def __post_init__(self) -> None:
        for name in ("payloads", "client_actions", "server_actions", "tools", "tabs"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        where = f"page {self.page!r}"
        _check_unique("payload type", [p.type for p in self.payloads], where=where)
        _check_unique("payload marker", [p.parse_marker for p in self.payloads], where=where)
        try:
            check_markers([*RESERVED_MARKERS, *(p.parse_marker for p in self.payloads)])
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        _check_unique("tool", [t.name for t in self.tools], where=where)
        _check_unique("tab", [t.name for t in self.tabs], where=where)
        clients = [a.action for a in self.client_actions if a.action != CLOSE_CHAT.action]
        servers = [a.action for a in self.server_actions]
        _check_unique("action", [CLOSE_CHAT.action, *clients, *servers], where=where)
        if self.context_budget <= 0:
            raise ValueError(f"{where}: context_budget must be positive")

    def tab(self, name: str | None) -> TabConfig | None:
        """The page's tab of that name, if it has one."""
        return next((t for t in self.tabs if t.name == name), None)

    def payloads_for(self, tab: str | None) -> tuple[PayloadConfig, ...]:
        """The payloads offered on `tab`."""
        return tuple(p for p in self.payloads if p.offered_on(tab))

    def all_client_actions(self) -> tuple[ClientAction, ...]:
        """The page's client actions, `close_chat` first."""
        own = tuple(a for a in self.client_actions if a.action != CLOSE_CHAT.action)
        return (CLOSE_CHAT, *own)

    def client_action(self, name: str) -> ClientAction | None:
        """The client action of that name (`close_chat` included), if the page has it."""
        return next((a for a in self.all_client_actions() if a.action == name), None)

    def server_action(self, name: str) -> ServerAction | None:
        """The server action of that name, if the page has it."""
        return next((a for a in self.server_actions if a.action == name), None)


def _check_unique(kind: str, names: list[str], *, where: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"{where}: {kind} {name!r} is defined twice")
        seen.add(name)
