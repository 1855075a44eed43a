"""Kill a real server mid-answer, start it again: the turn is still there, marked interrupted,
with the text the user had seen up to the last checkpoint."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.conftest import PASSWORD
from tests.support.crash import crash_env, crash_server, first_text, seed_user, until_checkpointed


async def _kill_mid_answer(
    env: dict[str, str], tmp_path: Path, *, checkpointed: bool
) -> tuple[list[dict[str, object]] | None, httpx.Response]:
    """Kill the server mid-answer, start it again; the conversation before and after."""
    mid_run = None
    async with (
        crash_server(env, tmp_path) as (base, proc),
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
            assert await first_text(live) == "The first words of a long answer"
            if checkpointed:
                mid_run = await until_checkpointed(client, conversation_id, headers)
            else:
                await asyncio.sleep(0.3)
            proc.kill()  # SIGKILL: no shutdown hook, no `finally` of the run
            await proc.wait()

    async with (
        crash_server(env, tmp_path) as (base, _proc),
        httpx.AsyncClient(base_url=base, timeout=10) as client,
    ):
        return mid_run, await client.get(f"/api/conversations/{conversation_id}", headers=headers)


async def test_a_killed_server_leaves_the_turn_interrupted_with_its_partial_answer(
    database_url: str, tmp_path: Path
) -> None:
    await seed_user(database_url)

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
    await seed_user(database_url)
    env = crash_env(database_url, tmp_path) | {"PAGECHAT_CHECKPOINT_SECONDS": "0"}

    _, detail = await _kill_mid_answer(env, tmp_path, checkpointed=False)

    # Checkpoints off: the placeholder is all there is, still shown as interrupted.
    assert [(m["role"], m["content"], m["status"]) for m in detail.json()["messages"]] == [
        ("user", "Explain it all", "complete"),
        ("assistant", "", "interrupted"),
    ]
