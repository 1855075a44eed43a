"""A real pagechat server in a process of its own, to be killed mid-answer (SIGKILL), and
what a test of that needs: its environment, an account, the first text, the checkpoint."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from asyncio.subprocess import Process
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from pagechat.auth import hash_password
from pagechat.store import create_engine, create_sessionmaker, upgrade_async
from pagechat.store.users import create_user
from pagechat.testing import TEST_PASSWORD, free_port

__all__ = ["crash_env", "crash_server", "first_text", "seed_user", "until_checkpointed"]

_SCRIPT = Path(__file__).parents[1] / "pagechat" / "server" / "crash_app.py"


@asynccontextmanager
async def crash_server(env: dict[str, str], cwd: Path) -> AsyncIterator[tuple[str, Process]]:
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(_SCRIPT), str(port), env=env, cwd=cwd
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=5) as client:
            for _ in range(300):
                if proc.returncode is not None:
                    raise AssertionError(f"the server exited with {proc.returncode}")
                try:
                    if (await client.get("/api/health")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the server did not start within 30 s")
        yield base, proc
    finally:
        if proc.returncode is None:
            proc.kill()
        await asyncio.wait_for(proc.wait(), 10)


async def first_text(response: httpx.Response) -> str:
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            event = json.loads(line[5:])
            if event["type"] == "text_delta":
                return str(event["text"])
    raise AssertionError("the stream ended without text")


async def until_checkpointed(
    client: httpx.AsyncClient, conversation_id: str, headers: dict[str, str]
) -> list[dict[str, object]]:
    """The conversation as a reload mid-answer shows it, once the partial answer is saved."""
    for _ in range(100):
        detail = await client.get(f"/api/conversations/{conversation_id}", headers=headers)
        messages: list[dict[str, object]] = detail.json()["messages"]
        if messages[-1]["content"]:
            return messages
        await asyncio.sleep(0.05)
    raise AssertionError("the running answer was not checkpointed within 5 s")


def crash_env(database_url: str, tmp_path: Path) -> dict[str, str]:
    # No PAGECHAT_SECRET: the token issued before the crash must still work after it.
    env = {k: v for k, v in os.environ.items() if k != "PAGECHAT_SECRET"}
    return env | {
        "DATABASE_URL": database_url,
        "PAGECHAT_STATE_DIR": str(tmp_path / "state"),
        "PAGECHAT_CHECKPOINT_SECONDS": "0.1",
    }


async def seed_user(database_url: str) -> None:
    engine = create_engine(database_url)
    await upgrade_async(engine)
    async with create_sessionmaker(engine).begin() as session:
        await create_user(
            session=session, email="ada@example.com", password_hash=hash_password(TEST_PASSWORD)
        )
    await engine.dispose()
