"""Real `pagechat serve` processes sharing Redis and a database: workers of one deployment.

Each `Worker` is a process of its own on a free port; `kill()` is SIGKILL (no
code of the worker runs), `terminate()` SIGTERM (it drains), `start()` again
after either. The model is the real Anthropic SDK pointed at a fake upstream.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from asyncio.subprocess import Process
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from pagechat.auth import hash_password
from pagechat.store import create_engine, create_sessionmaker, upgrade_async
from pagechat.store.users import create_user
from pagechat.testing import free_port

__all__ = ["Event", "Worker", "events", "seed_user", "worker_env"]

SECRET = "workers-secret-" + "w" * 40


def worker_env(
    *, database_url: str, redis_url: str, upstream: str, state_dir: Path, **extra: str
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAGECHAT_", "OPENAI_"))}
    return (
        env
        | {
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "ANTHROPIC_API_KEY": "test-key",
            "ANTHROPIC_BASE_URL": upstream,
            "PAGECHAT_SECRET": SECRET,
            "PAGECHAT_STATE_DIR": str(state_dir),
            "PAGECHAT_CHECKPOINT_SECONDS": "0.2",
            "PAGECHAT_RUN_LEASE_SECONDS": "1.5",
        }
        | extra
    )


async def seed_user(database_url: str, email: str, password: str) -> None:
    engine = create_engine(database_url)
    await upgrade_async(engine)
    async with create_sessionmaker(engine).begin() as session:
        await create_user(session=session, email=email, password_hash=hash_password(password))
    await engine.dispose()


@dataclass
class Worker:
    name: str
    env: Mapping[str, str]
    port: int = field(default_factory=free_port)
    proc: Process | None = None

    @property
    def pid(self) -> int:
        """The process id of the running worker."""
        assert self.proc is not None
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "pagechat.cli",
            "serve",
            "--port",
            str(self.port),
            env=dict(self.env),
            stdout=asyncio.subprocess.DEVNULL,
        )
        async with httpx.AsyncClient(base_url=self.url, timeout=2) as client:
            for _ in range(600):
                if self.proc.returncode is not None:
                    raise AssertionError(f"worker {self.name} exited with {self.proc.returncode}")
                try:
                    if (await client.get("/api/health")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
        raise AssertionError(f"worker {self.name} did not start within 60 s")

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        await self.proc.wait()

    def pause(self) -> None:
        """SIGSTOP: the worker stands still (a stalled host, a long GC pause) until `resume`."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after `pause`: the worker goes on where it stood."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    async def terminate(self) -> int:
        """SIGTERM; returns the exit code once the worker has drained and stopped."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.proc.wait(), 60)

    async def aclose(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


@dataclass(frozen=True)
class Event:
    id: int | None
    data: dict[str, object]

    @property
    def type(self) -> str:
        return str(self.data["type"])


async def events(response: httpx.Response) -> AsyncIterator[Event]:
    """The SSE events of a response, with their `id:` (None for an event without one)."""
    event_id: int | None = None
    async for line in response.aiter_lines():
        if line.startswith("id:"):
            event_id = int(line[3:].strip())
        elif line.startswith("data:"):
            yield Event(event_id, json.loads(line[5:]))
        elif line == "":
            event_id = None
