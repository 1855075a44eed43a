"""Every log line of a real `pagechat serve` is written, redacted, whatever it holds.

Key-shaped text and pieces of the configured key and secret go in paths, queries,
headers and exceptions; uvicorn's access and error loggers and the app's own must each
write their line, without the key, and never fail on a record (issue 34, item 3).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import httpx

from pagechat.testing import free_port

API_KEY = "sk-ant-api03-Zq8vN2xT7pLm4RkW9yBc1DfGh5JsKa6E"
SECRET = "log-secret-Hq3ZrVw8Ty1Np6Lk2Fd9Bs4Jx7Cm0Ge5"
ROOT = Path(__file__).resolve().parents[3]


def _hostile(n: int) -> tuple[str, dict[str, str]]:
    """The n-th hostile request: a path with its query, and headers."""
    piece = API_KEY[n % 30 : n % 30 + 8]
    secret_piece = SECRET[n % 25 : n % 25 + 7]
    return [
        (f"/api/health?k=sk-proj-AbCdEf{n:06d}", {}),
        (f"/api/health?k={piece}", {}),
        (f"/api/{secret_piece}/{n}", {}),
        (f"/api/health?q=Bearer%20{API_KEY}", {"Authorization": f"Bearer {API_KEY}"}),
        (f"/Bearer?n={n}", {"X-Api-Key": API_KEY}),
        # uvicorn closes a connection whose request raised: this one is not reused.
        (f"/api/leak?q={piece}-sk-live-{n:08d}", {"Connection": "close"}),
    ][n % 6]


def _tail(path: Path) -> str:
    return path.read_text()[-2000:]


def _grams(text: str) -> list[str]:
    return [text[i : i + 6] for i in range(len(text) - 5)]


async def _serve(tmp_path: Path, out: Path, err: Path) -> tuple[asyncio.subprocess.Process, int]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAGECHAT_", "ANTHROPIC_"))}
    env |= {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/pagechat.db",
        "PAGECHAT_STATE_DIR": str(tmp_path / "state"),
        "PAGECHAT_SECRET": SECRET,
        "ANTHROPIC_API_KEY": API_KEY,
        "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "pagechat.cli",
        "serve",
        "--port",
        str(port),
        "--app",
        "tests.pagechat.server.leaky_app:create_app",
        env=env,
        cwd=ROOT,
        stdout=out.open("wb"),
        stderr=err.open("wb"),
    )
    async with httpx.AsyncClient(timeout=2) as client:
        for _ in range(300):
            try:
                if (await client.get(f"http://127.0.0.1:{port}/api/health")).is_success:
                    return proc, port
            except httpx.TransportError:
                await asyncio.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start: {_tail(err)}")


async def _send(port: int, count: int) -> None:
    limit = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:

        async def one(n: int) -> None:
            path, headers = _hostile(n)
            async with limit:
                await client.get(path, headers=headers)

        await asyncio.gather(*(one(n) for n in range(count)))


async def test_a_thousand_hostile_requests_each_leave_one_redacted_access_line(
    tmp_path: Path,
) -> None:
    out, err = tmp_path / "stdout.log", tmp_path / "stderr.log"
    proc, port = await _serve(tmp_path, out, err)
    try:
        await _send(port, 1000)
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 30)
    written = out.read_text() + err.read_text()
    leaks = sum(1 for n in range(1000) if n % 6 == 5)

    access = re.findall(r'"GET (\S+) HTTP/1\.1" (\d{3})', written)
    hostile = [(path, status) for path, status in access if path != "/api/health"]
    assert len(hostile) == 1000
    assert "--- Logging error ---" not in written
    assert written.count("asked to leak") == leaks
    assert written.count("Exception in ASGI application") == leaks
    assert written.count("RuntimeError: leaked [redacted]") == leaks
    for gram in {*_grams(API_KEY), *_grams(SECRET)}:
        assert gram not in written
    assert "sk-proj-AbCdEf" not in written and "sk-live-" not in written
