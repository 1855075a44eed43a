"""The notes example (examples/notes/app.py) for its browser test, served with pagechat.testing.

Run with the project's Python: `../.venv/bin/python e2e/notes_server.py --static dist`.
It prints `PORT <n>` once it listens on 127.0.0.1 and stops on SIGTERM. The account is
notes@example.com with pagechat.testing's TEST_PASSWORD; the model saves the note the user
asks for, then says so.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

from pagechat.models import ModelRequest, ScriptItem
from pagechat.models.base import ToolResultsTurn
from pagechat.testing import FunctionModel, running_app, tool_call

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))


def _reply(request: ModelRequest) -> list[ScriptItem]:
    if isinstance(request.messages[-1], ToolResultsTurn):
        return ["Saved it."]
    return [tool_call("save_note", {"title": "Milk", "body": "Buy two litres"})]


async def main(static: Path) -> None:
    async with running_app(
        "notes.app:create_app",
        model=FunctionModel(_reply),
        settings={"PAGECHAT_WEB_DIR": static},
        email="notes@example.com",
    ) as app:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        print(f"PORT {app.base_url.rsplit(':', 1)[1]}", flush=True)
        await stop.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--static", type=Path, required=True)
    asyncio.run(main(parser.parse_args().static.resolve()))
