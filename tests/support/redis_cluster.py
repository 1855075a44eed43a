"""A real Redis Cluster: three `redis-server` masters (Debian's package) on loopback.

The slots are spread over the three by `redis-cli --cluster create`, as an operator
would; each test that needs a cluster gets its own, stopped afterwards.
"""

from __future__ import annotations

import subprocess
import time

from pagechat.testing import free_port

from .redis_server import RedisServer, redis_server_binary

__all__ = ["RedisClusterServers"]


class RedisClusterServers:
    """Three masters, no replicas; `url` names the first (a client finds the rest)."""

    def __init__(self, masters: int = 3) -> None:
        binary = redis_server_binary()
        # The cluster bus port, by default the port + 10000, may be past 65535 or taken.
        self.nodes = [RedisServer(binary, args=self._cluster_args()) for _ in range(masters)]

    @staticmethod
    def _cluster_args() -> tuple[str, ...]:
        return (
            "--cluster-enabled", "yes",
            "--cluster-port", str(free_port()),
            "--cluster-node-timeout", "2000",
        )  # fmt: skip

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.nodes[0].port}"

    def start(self) -> None:
        for node in self.nodes:
            node.start()
        subprocess.run(
            [
                "redis-cli", "--cluster", "create",
                *(f"127.0.0.1:{node.port}" for node in self.nodes),
                "--cluster-replicas", "0", "--cluster-yes",
            ],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if all(self._state(node) == "ok" for node in self.nodes):
                return
            time.sleep(0.1)
        raise RuntimeError("the Redis Cluster did not reach cluster_state:ok within 30 s")

    @staticmethod
    def _state(node: RedisServer) -> str:
        info = subprocess.run(
            ["redis-cli", "-p", str(node.port), "cluster", "info"],
            capture_output=True, text=True, timeout=10,
        ).stdout  # fmt: skip
        for line in info.splitlines():
            if line.startswith("cluster_state:"):
                return line.split(":", 1)[1].strip()
        return ""

    def close(self) -> None:
        for node in self.nodes:
            node.close()
