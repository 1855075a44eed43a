"""A real `redis-server` (Debian's package) on a free loopback port, persistence off.

Each test that needs Redis gets its own server, so no state leaks between tests;
`restart()` keeps the port, for tests of a Redis lost mid-answer.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from pagechat.testing import free_port

__all__ = ["RedisServer", "redis_server_binary"]


def redis_server_binary() -> str:
    """The redis-server to run; skipped without one, except in CI, where that fails."""
    path = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
    )
    if path is None:
        message = "redis-server is not installed (make system-packages installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


class RedisServer:
    def __init__(self, binary: str, port: int | None = None, *, args: tuple[str, ...] = ()) -> None:
        self.binary = binary
        self.port = port or free_port()
        self.args = args
        """More of redis-server's options (`--cluster-enabled yes`, ...)."""
        self._dir = Path(tempfile.mkdtemp(prefix="pagechat-redis-"))
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self._proc = subprocess.Popen(
            [
                self.binary,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", str(self._dir),
                "--daemonize", "no",
                "--loglevel", "warning",
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self._proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start within 10 s")

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(5)
        self._proc = None

    def restart(self) -> None:
        """Stop and start again on the same port: every key is gone (persistence is off)."""
        self.stop()
        self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self._dir, ignore_errors=True)
