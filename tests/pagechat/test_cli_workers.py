"""`pagechat serve --workers N`: several processes behind one port, sharing Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pagechat.cli import main
from pagechat.testing import free_port


def test_several_workers_without_redis_refuse_to_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], sqlite_url: str
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("DATABASE_URL", sqlite_url)

    assert main(["serve", "--workers", "2", "--port", str(free_port())]) == 1

    error = capsys.readouterr().err
    assert "--workers 2 needs REDIS_URL" in error


@pytest.fixture
def two_workers(sqlite_url: str, redis_url: str, tmp_path: Path) -> Iterator[httpx.Client]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAGECHAT_", "PROMETHEUS"))}
    env |= {
        "DATABASE_URL": sqlite_url,
        "REDIS_URL": redis_url,
        "PAGECHAT_STATE_DIR": str(tmp_path / "state"),
        "PAGECHAT_METRICS_TOKEN": "scraper-token-" + "m" * 30,
    }
    subprocess.run(
        [sys.executable, "-m", "pagechat.cli", "users", "ensure-demo"], env=env, check=True
    )
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pagechat.cli", "serve", "--workers", "2", "--port", str(port)],
        env=env,
        cwd=tmp_path,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            for _ in range(300):
                assert proc.poll() is None, "pagechat serve exited"
                try:
                    client.get("/api/health")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            login = client.post(
                "/api/auth/login", json={"email": "demo@example.com", "password": "demo"}
            )
            client.headers["Authorization"] = f"Bearer {login.json()['access_token']}"
            yield client
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _events(text: str) -> list[tuple[str, str]]:
    ids = [line[4:] for line in text.splitlines() if line.startswith("id: ")]
    data = [line[6:] for line in text.splitlines() if line.startswith("data: ")]
    return list(zip(ids, data, strict=True))


def test_every_worker_replays_an_answer_and_metrics_add_up(two_workers: httpx.Client) -> None:
    client = two_workers
    answers = 3
    for _ in range(answers):
        live = client.post("/api/chat/stream", json={"message": "hello"})
        run_id = live.headers["X-Run-Id"]
        streamed = _events(live.text)
        assert json.loads(streamed[-1][1])["type"] == "complete"
        # The port's connections land on either worker: each replays the same events.
        for _ in range(6):
            replay = client.get(f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": "0"})
            assert _events(replay.text) == streamed

    scrape = client.get(
        "/metrics", headers={"Authorization": "Bearer scraper-token-" + "m" * 30}
    ).text
    started = [line for line in scrape.splitlines() if line.startswith("pagechat_runs_started")]
    assert started and float(started[0].split()[-1]) == answers
