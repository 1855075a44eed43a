"""The notes example (examples/notes/app.py) for its browser test, served with pagechat.testing.

Run with the project's Python: `../.venv/bin/python e2e/notes_server.py --static dist`.
It prints `PORT <n>` once it listens on 127.0.0.1 and stops on SIGTERM. The account is
notes@example.com with pagechat.testing's TEST_PASSWORD; the model saves the note the user
asks for, then says so.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from app_server import serve_app, static_dir

from pagechat.models import ModelRequest, ScriptItem
from pagechat.models.base import ToolResultsTurn
from pagechat.testing import FunctionModel, tool_call

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))


def _reply(request: ModelRequest) -> list[ScriptItem]:
    if isinstance(request.messages[-1], ToolResultsTurn):
        return ["Saved it."]
    return [tool_call("save_note", {"title": "Milk", "body": "Buy two litres"})]


if __name__ == "__main__":
    asyncio.run(
        serve_app(
            "notes.app:create_app",
            model=FunctionModel(_reply),
            static=static_dir(),
            email="notes@example.com",
        )
    )
