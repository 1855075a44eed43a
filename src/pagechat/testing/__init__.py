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

Nothing here imports pytest: use it from any test runner.
"""

from ..models.testing import FunctionModel, Pause, ScriptedModel, ScriptItem, tool_call
from .app import TEST_PASSWORD, LiveApp, TestAccount, isolated_registrations, running_app
from .assertions import assert_event_types, completed_payload, event_types, streamed_text
from .client import ChatClient, ChatTurn
from .live import free_port, serve
from .sse import Frame, events, frames, read_all

__all__ = [
    "TEST_PASSWORD",
    "ChatClient",
    "ChatTurn",
    "Frame",
    "FunctionModel",
    "LiveApp",
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
