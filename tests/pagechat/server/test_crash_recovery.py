"""Kill a real server mid-answer, start it again: the turn is still there, marked interrupted,
with the text the user had seen up to the last checkpoint."""

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
from pagechat.testing import free_port
from tests.conftest import PASSWORD

SCRIPT = Path(__file__).with_name("crash_app.py")


@asynccontextmanager
async def _server(env: dict[str, str], cwd: Path) -> AsyncIterator[tuple[str, Process]]:
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(SCRIPT), str(port), env=env, cwd=cwd
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


async def _first_text(response: httpx.Response) -> str:
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            event = json.loads(line[5:])
            if event["type"] == "text_delta":
                return str(event["text"])
    raise AssertionError("the stream ended without text")


async def _until_checkpointed(
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


async def _seed_user(database_url: str) -> None:
    engine = create_engine(database_url)
    await upgrade_async(engine)
    async with create_sessionmaker(engine).begin() as session:
        await create_user(
            session=session, email="ada@example.com", password_hash=hash_password(PASSWORD)
        )
    await engine.dispose()


async def _kill_mid_answer(
    env: dict[str, str], tmp_path: Path, *, checkpointed: bool
) -> tuple[list[dict[str, object]] | None, httpx.Response]:
    """Kill the server mid-answer, start it again; the conversation before and after."""
    mid_run = None
    async with (
        _server(env, tmp_path) as (base, proc),
        httpx.AsyncClient(base_url=base, timeout=10) as client,
    ):
        token = (
            await client.post(
                "/api/auth/login", json={"email": "ada@example.com", "password": PASSWORD}
            )
        ).json()["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        async with client.stream(
            "POST", "/api/chat/stream", json={"message": "Explain it all"}, headers=headers
        ) as live:
            conversation_id = live.headers["X-Conversation-Id"]
            assert await _first_text(live) == "The first words of a long answer"
            if checkpointed:
                mid_run = await _until_checkpointed(client, conversation_id, headers)
            else:
                await asyncio.sleep(0.3)
            proc.kill()  # SIGKILL: no shutdown hook, no `finally` of the run
            await proc.wait()

    async with (
        _server(env, tmp_path) as (base, _proc),
        httpx.AsyncClient(base_url=base, timeout=10) as client,
    ):
        return mid_run, await client.get(f"/api/conversations/{conversation_id}", headers=headers)


async def test_a_killed_server_leaves_the_turn_interrupted_with_its_partial_answer(
    database_url: str, tmp_path: Path
) -> None:
    await _seed_user(database_url)

    mid_run, detail = await _kill_mid_answer(
        crash_env(database_url, tmp_path), tmp_path, checkpointed=True
    )

    assert mid_run is not None
    assert [(m["role"], m["content"], m["status"]) for m in mid_run] == [
        ("user", "Explain it all", "complete"),
        ("assistant", "The first words of a long answer", "running"),
    ]
    assert detail.status_code == 200
    messages = detail.json()["messages"]
    assert [(m["role"], m["content"], m["status"]) for m in messages] == [
        ("user", "Explain it all", "complete"),
        ("assistant", "The first words of a long answer", "interrupted"),
    ]
    assert messages[1]["error"]


async def test_a_server_killed_before_any_checkpoint_leaves_an_empty_interrupted_answer(
    database_url: str, tmp_path: Path
) -> None:
    await _seed_user(database_url)
    env = crash_env(database_url, tmp_path) | {"PAGECHAT_CHECKPOINT_SECONDS": "0"}

    _, detail = await _kill_mid_answer(env, tmp_path, checkpointed=False)

    # Checkpoints off: the placeholder is all there is, still shown as interrupted.
    assert [(m["role"], m["content"], m["status"]) for m in detail.json()["messages"]] == [
        ("user", "Explain it all", "complete"),
        ("assistant", "", "interrupted"),
    ]
