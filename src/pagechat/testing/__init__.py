"""Testing an app built on pagechat: its pages, tools and cards, through the real server.

Everything here runs the real thing in the test's own event loop: the app your
factory builds, on a SQLite file in a temporary directory, served by uvicorn on
loopback, with a user and a token; the model is scripted (`ScriptedModel`) or
computed (`FunctionModel`), so no API key is needed::

    from pagechat.testing import running_app, tool_call

    async def test_a_note_is_saved() -> None:
        async with running_app("notes.app:create_app") as app:
            app.script([tool_call("save_note", {"text": "buy milk"})], ["Saved."])
            turn = await app.client.chat("remember to buy milk", page="notes")
            assert turn.payload.custom_payload.type == "note"

A turn that pauses before a tool call the user must approve ends with
`turn.approval` (the `approval_requested` event); `await app.client.approve(turn)`
or `deny(turn, note=...)` decides it and returns the turn that goes on, read to its
end, like `chat` does.

Nothing here imports pytest: use it from any test runner. With pytest, the plugin
`pagechat.testing.pytest_plugin` (registered as an entry point, so installing
pagechat loads it) runs `async def` tests with no configuration and gives them
`pagechat_app`, a `LiveApp` of the project's app factory: a
`@pytest.mark.pagechat_app("pkg.module:factory")` marker, else `PAGECHAT_APP`,
else `[tool.pagechat] app = "pkg.module:factory"` in pyproject.toml.

The names load on first use: pytest imports the plugin, and so this package, in
every project where pagechat is installed, and most never touch the server.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..models.testing import FunctionModel, Pause, ScriptedModel, ScriptItem, tool_call
    from .app import TEST_PASSWORD, LiveApp, TestAccount, isolated_registrations, running_app
    from .assertions import assert_event_types, completed_payload, event_types, streamed_text
    from .client import ChatClient, ChatTurn, NoPendingApproval
    from .live import free_port, serve
    from .sse import Frame, events, frames, read_all

__all__ = [
    "TEST_PASSWORD",
    "ChatClient",
    "ChatTurn",
    "Frame",
    "FunctionModel",
    "LiveApp",
    "NoPendingApproval",
    "Pause",
    "ScriptItem",
    "ScriptedModel",
    "TestAccount",
    "assert_event_types",
    "completed_payload",
    "event_types",
    "events",
    "frames",
    "free_port",
    "isolated_registrations",
    "read_all",
    "running_app",
    "serve",
    "streamed_text",
    "tool_call",
]

_MODULES = {
    "..models.testing": ["FunctionModel", "Pause", "ScriptedModel", "ScriptItem", "tool_call"],
    ".app": ["TEST_PASSWORD", "LiveApp", "TestAccount", "isolated_registrations", "running_app"],
    ".assertions": ["assert_event_types", "completed_payload", "event_types", "streamed_text"],
    ".client": ["ChatClient", "ChatTurn", "NoPendingApproval"],
    ".live": ["free_port", "serve"],
    ".sse": ["Frame", "events", "frames", "read_all"],
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # the next look-up is a plain global
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
