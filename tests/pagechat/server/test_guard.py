"""A real `pagechat serve`, attacked over loopback: huge headers, slow headers, a stalled
body, an idle connection, forged X-Forwarded-For. Each is refused; others are served."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from pagechat.testing import free_port

LIMITS = {
    "PAGECHAT_MAX_HEADER_BYTES": "4096",
    "PAGECHAT_HEADER_TIMEOUT_SECONDS": "1",
    "PAGECHAT_BODY_TIMEOUT_SECONDS": "1",
    "PAGECHAT_LOGIN_MAX_ATTEMPTS": "3",
}


@asynccontextmanager
async def _serve(tmp_path: Path, **env: str) -> AsyncIterator[int]:
    port = free_port()
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("PAGECHAT_")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "pagechat.cli",
        "serve",
        "--port",
        str(port),
        env=base_env
        | {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/pagechat.db",
            "PAGECHAT_STATE_DIR": str(tmp_path / "state"),
        }
        | env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        async with httpx.AsyncClient(timeout=2) as client:
            for _ in range(300):
                try:
                    if (await client.get(f"http://127.0.0.1:{port}/api/health")).is_success:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 15)


async def _healthy(port: int) -> bool:
    async with httpx.AsyncClient(timeout=2) as client:
        return (await client.get(f"http://127.0.0.1:{port}/api/health")).status_code == 200


async def _read_all(reader: asyncio.StreamReader, within: float) -> bytes:
    """What the server sends until it closes the connection (bounded in time)."""
    async with asyncio.timeout(within):
        return await reader.read()


async def test_huge_headers_get_a_431_and_the_connection_closed(tmp_path: Path) -> None:
    async with _serve(tmp_path, **LIMITS) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 8000 + b"\r\n\r\n")
        await writer.drain()
        answer = await _read_all(reader, 5)
        writer.close()

        assert answer.startswith(b"HTTP/1.1 431 ")
        assert await _healthy(port)


async def test_headers_sent_too_slowly_get_a_408_while_others_are_served(tmp_path: Path) -> None:
    async with _serve(tmp_path, **LIMITS) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()

        async def trickle() -> None:
            for _ in range(20):  # one header byte every 0.2 s, for at most 4 s
                await asyncio.sleep(0.2)
                if writer.is_closing():
                    return
                writer.write(b"X")
                try:
                    await writer.drain()
                except ConnectionError:
                    return

        slow = asyncio.create_task(trickle())
        assert await _healthy(port)  # served while the slow client hangs on
        answer = await _read_all(reader, 5)
        slow.cancel()
        writer.close()

        assert answer.startswith(b"HTTP/1.1 408 ")
        assert time.monotonic() - started < 4


async def test_a_connection_that_sends_nothing_is_closed(tmp_path: Path) -> None:
    async with _serve(tmp_path, **LIMITS) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        answer = await _read_all(reader, 5)
        writer.close()

    assert answer.startswith(b"HTTP/1.1 408 ")


async def test_a_stalled_request_body_closes_the_connection(tmp_path: Path) -> None:
    async with _serve(tmp_path, **LIMITS) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 200\r\n\r\n{"email": '
        )
        await writer.drain()
        answer = await _read_all(reader, 5)  # closed after the 1 s body timeout
        writer.close()

        assert b"200 OK" not in answer
        assert await _healthy(port)


async def _failed_logins(port: int, forwarded: list[str]) -> list[int]:
    codes = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        for address in forwarded:
            r = await client.post(
                "/api/auth/login",
                json={"email": "victim@example.com", "password": "wrong-guess"},
                headers={"X-Forwarded-For": address},
            )
            codes.append(r.status_code)
    return codes


async def test_forged_forwarded_for_does_not_reset_the_lockout(tmp_path: Path) -> None:
    async with _serve(tmp_path, **LIMITS) as port:
        codes = await _failed_logins(port, [f"203.0.113.{i}" for i in range(5)])

    assert codes == [401, 401, 401, 429, 429]


async def test_forwarded_for_from_a_named_proxy_is_believed(tmp_path: Path) -> None:
    async with _serve(tmp_path, **LIMITS, PAGECHAT_TRUSTED_PROXIES="127.0.0.1") as port:
        codes = await _failed_logins(port, [f"203.0.113.{i}" for i in range(5)])

    assert codes == [401] * 5  # five clients behind the proxy, one failure each
