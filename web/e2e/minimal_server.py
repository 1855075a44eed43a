"""Plain pagechat serving the minimal example app (web/examples/minimal), for its browser test.

Run with the project's Python: `../.venv/bin/python e2e/minimal_server.py --static
examples/minimal/dist`. It prints `PORT <n>` once it listens on 127.0.0.1 and stops on
SIGTERM. The account is minimal@example.com with pagechat.testing's TEST_PASSWORD; the model
streams its answer in two parts with a pause between them, so the page shows it streaming.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path

from pagechat.models import ModelRequest, Pause, ScriptItem
from pagechat.testing import FunctionModel, running_app

FIRST, REST = "Hello from", " the package."


def _reply(_request: ModelRequest) -> list[ScriptItem]:
    return [FIRST, Pause(1.5), REST]


async def main(static: Path) -> None:
    async with running_app(
        None,
        model=FunctionModel(_reply),
        settings={"PAGECHAT_WEB_DIR": static},
        email="minimal@example.com",
    ) as app:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        print(f"PORT {app.base_url.rsplit(':', 1)[1]}", flush=True)
        await stop.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--static", type=Path, required=True)
    asyncio.run(main(parser.parse_args().static.resolve()))
