"""Plain pagechat serving the minimal example app (web/examples/minimal), for its browser test.

Run with the project's Python: `../.venv/bin/python e2e/minimal_server.py --static
examples/minimal/dist`. It prints `PORT <n>` once it listens on 127.0.0.1 and stops on
SIGTERM. The account is minimal@example.com with pagechat.testing's TEST_PASSWORD; the model
streams its answer in two parts with a pause between them, so the page shows it streaming.
"""

from __future__ import annotations

import asyncio

from app_server import serve_app, static_dir

from pagechat.models import ModelRequest, Pause, ScriptItem
from pagechat.testing import FunctionModel

FIRST, REST = "Hello from", " the package."


def _reply(_request: ModelRequest) -> list[ScriptItem]:
    return [FIRST, Pause(1.5), REST]


if __name__ == "__main__":
    asyncio.run(
        serve_app(
            None, model=FunctionModel(_reply), static=static_dir(), email="minimal@example.com"
        )
    )
