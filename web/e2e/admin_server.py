"""Plain pagechat with real accounts (sessions, API keys, passwords) for the browser tests
of the shell's Account and Usage pages (e2e/admin.spec.ts).

Run with the project's Python: `../.venv/bin/python e2e/admin_server.py --static dist`. It
prints `PORT <n>` once it listens on 127.0.0.1 and stops on SIGTERM. Every account's
password is pagechat.testing's TEST_PASSWORD: admin@example.com is an admin; user@,
password@, everywhere@ and keys@example.com are not (one per test that changes its account).
The model echoes the question, and titles each new conversation "Echoed question".
"""

from __future__ import annotations

import asyncio
import signal

from app_server import static_dir

from pagechat.models import ModelRequest
from pagechat.models.base import UserTurn
from pagechat.testing import FunctionModel, running_app

ACCOUNTS = ("password@example.com", "everywhere@example.com", "keys@example.com")


def _echo(request: ModelRequest) -> str:
    last = request.messages[-1] if request.messages else None
    return f"You said: {last.text}" if isinstance(last, UserTurn) else "Hello."


async def main() -> None:
    model = FunctionModel(_echo, title="Echoed question")
    settings = {"PAGECHAT_WEB_DIR": static_dir()}
    async with running_app(None, model=model, settings=settings, email="user@example.com") as app:
        await app.add_user("admin@example.com", is_admin=True)
        for email in ACCOUNTS:
            await app.add_user(email)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        print(f"PORT {app.base_url.rsplit(':', 1)[1]}", flush=True)
        await stop.wait()


if __name__ == "__main__":
    asyncio.run(main())
