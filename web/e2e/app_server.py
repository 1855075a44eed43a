"""What the browser tests' app servers share: an app served with pagechat.testing until SIGTERM.

`PORT <n>` is printed once it listens on 127.0.0.1 (e2e/servers.ts waits for that line).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path

from pagechat.apps import AppFactory
from pagechat.models import Model
from pagechat.testing import running_app

__all__ = ["serve_app", "static_dir"]


async def serve_app(
    factory: AppFactory | str | None, *, model: Model, static: Path, email: str
) -> None:
    async with running_app(
        factory, model=model, settings={"PAGECHAT_WEB_DIR": static}, email=email
    ) as app:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        print(f"PORT {app.base_url.rsplit(':', 1)[1]}", flush=True)
        await stop.wait()


def static_dir() -> Path:
    """The `--static` folder of the built web app the server serves."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--static", type=Path, required=True)
    return Path(parser.parse_args().static).resolve()
