"""The "Build your own app" commands of docs/pages.md, run as written, so they cannot rot.

Each line of the section's `sh` block runs from the repository root; the one that
serves is started, used as a user would (sign in, a turn on the notes page, a
misspelt page), and stopped. Its database and state go to a temporary directory,
and its port is a free one instead of the page's 8001.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
from pathlib import Path

import httpx

from pagechat.testing import free_port

REPO = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    readme = (REPO / "docs" / "pages.md").read_text()
    section = readme.split("## Build your own app", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1, "the section has one block of commands"
    return [line for line in blocks[0].splitlines() if line.strip()]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PAGECHAT_", "ANTHROPIC_", "OPENAI_", "DATABASE_URL", "PYTHONPATH"))
    }
    return env | {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/notes.db",
        "PAGECHAT_STATE_DIR": str(tmp_path / "state"),
    }


def _serve_and_use(command: str, env: dict[str, str]) -> None:
    port = free_port()
    command = command.replace("--port 8001", f"--port {port}")
    # A session of its own: the shell and the server it starts are stopped together.
    proc = subprocess.Popen(["bash", "-c", command], cwd=REPO, env=env, start_new_session=True)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            for _ in range(300):
                assert proc.poll() is None, f"{command!r} exited with {proc.returncode}"
                try:
                    if client.get("/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            login = client.post(
                "/api/auth/login", json={"email": "demo@example.com", "password": "demo"}
            )
            assert login.status_code == 200, login.text
            headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
            turn = client.post(
                "/api/chat/stream",
                json={"message": "hi", "context": {"current_page": "notes"}},
                headers=headers,
            )
            assert turn.status_code == 200
            assert "No language model is configured" in turn.text
            typo = client.post(
                "/api/chat/stream",
                json={"message": "hi", "context": {"current_page": "note"}},
                headers=headers,
            )
            assert typo.status_code == 400
            assert typo.json()["known_pages"] == ["notes"]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def test_the_build_your_own_app_commands_work_as_written(tmp_path: Path) -> None:
    commands = _commands()
    assert any(" serve " in c for c in commands)
    env = _env(tmp_path)
    for command in commands:
        if " serve " in command:
            _serve_and_use(command, env)
        else:
            done = subprocess.run(
                ["bash", "-c", command], cwd=REPO, env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, f"{shlex.quote(command)}:\n{done.stdout}{done.stderr}"
