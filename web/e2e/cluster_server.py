"""Two pagechat workers behind nginx, for the browser test of a scaled-out deployment.

Run with the project's Python: `../.venv/bin/python e2e/cluster_server.py --static dist`.
It starts, in a temporary folder that it deletes when it stops (SIGTERM):

* a real `redis-server` (Debian's package) on a free port, persistence off;
* a fake Anthropic upstream (tests/fakes): "words N" in the last question gets an
  answer of N numbered words (`w0 w1 ...`) at 40 words a second; asked to continue a
  partial answer (the assistant prefill of a takeover), it goes on from the next number;
* two `pagechat serve` workers sharing that Redis and one SQLite file, the real
  Anthropic SDK pointed at the fake, the built web UI served by both, with a short run
  lease (1.5 s, tests/support/workers.py) so a killed worker's answer is taken over fast;
* nginx (Debian's package) in front of them, round robin, SSE unbuffered, its
  access log recording which worker answered each request (`$upstream_addr`), and
  each response saying so in an `X-Upstream` header.

It prints `ACCESS_LOG <path>`, `WORKERS <port> <port>`, `PIDS <pid> <pid>` (the same
order: a test SIGKILLs the worker owning an answer), then `PORT <n>` (nginx).
The account: e2e@example.com / e2e-password.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

from pagechat.testing import free_port

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.fakes.anthropic_server import FakeAnthropic, Response, reply  # noqa: E402
from tests.support.redis_server import RedisServer, redis_server_binary  # noqa: E402
from tests.support.workers import Worker, seed_user, worker_env  # noqa: E402

EMAIL, PASSWORD = "e2e@example.com", "e2e-password"
PACE = 40.0


def _text(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)


def _answer(body: dict[str, Any]) -> Response:
    messages: list[dict[str, Any]] = body["messages"]
    question = next(_text(m) for m in reversed(messages) if m["role"] == "user")
    match = re.search(r"words (\d+)", question)
    count = int(match.group(1)) if match else 5
    # A takeover asks to continue: the partial answer is the last (assistant) message.
    prefill = _text(messages[-1]) if messages[-1]["role"] == "assistant" else ""
    numbers = re.findall(r"\bw(\d+)\b", prefill)
    items = [f"w{i} " for i in range(int(numbers[-1]) + 1 if numbers else 0, count)]
    if prefill and items:
        items[0] = " " + items[0]  # a prefill ends without its space: the model adds it
    return reply(*(items or [" "]), tokens_per_second=PACE)


def _nginx_config(folder: Path, port: int, workers: list[int]) -> str:
    servers = "\n".join(f"    server 127.0.0.1:{p};" for p in workers)
    # As root, nginx's workers would otherwise run as `nobody`, who cannot use this folder.
    user = "user root;" if os.geteuid() == 0 else ""
    return f"""
{user}
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 512; }}
http {{
  log_format upstream '$request_method $uri $status $upstream_addr';
  access_log {folder}/access.log upstream;
  client_body_temp_path {folder}/body;
  proxy_temp_path {folder}/proxy;
  fastcgi_temp_path {folder}/fastcgi;
  uwsgi_temp_path {folder}/uwsgi;
  scgi_temp_path {folder}/scgi;
  upstream workers {{
{servers}
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://workers;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_buffering off;
      proxy_read_timeout 300s;
      add_header X-Upstream $upstream_addr always;
    }}
  }}
}}
"""


async def _listening(port: int, proc: asyncio.subprocess.Process) -> None:
    for _ in range(100):
        if proc.returncode is not None:
            raise RuntimeError(f"nginx exited with {proc.returncode}")
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise RuntimeError("nginx did not listen within 10 s")


async def _main(static: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="pagechat-cluster-"))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    redis = RedisServer(redis_server_binary())
    nginx: asyncio.subprocess.Process | None = None
    workers: list[Worker] = []
    try:
        redis.start()
        database_url = f"sqlite+aiosqlite:///{folder}/pagechat.db"
        await seed_user(database_url, EMAIL, PASSWORD)
        with FakeAnthropic(responder=_answer) as upstream:
            env = worker_env(
                database_url=database_url,
                redis_url=redis.url,
                upstream=upstream.base_url,
                state_dir=folder / "state",
                PAGECHAT_WEB_DIR=str(static),
            )
            workers = [Worker("a", env), Worker("b", env)]
            await asyncio.gather(*(w.start() for w in workers))
            port = free_port()
            config = folder / "nginx.conf"
            config.write_text(_nginx_config(folder, port, [w.port for w in workers]))
            nginx = await asyncio.create_subprocess_exec(
                "/usr/sbin/nginx", "-c", str(config), "-p", str(folder)
            )
            await _listening(port, nginx)
            print(f"ACCESS_LOG {folder / 'access.log'}", flush=True)
            print(f"WORKERS {workers[0].port} {workers[1].port}", flush=True)
            print(f"PIDS {workers[0].pid} {workers[1].pid}", flush=True)
            print(f"PORT {port}", flush=True)
            await stop.wait()
    finally:
        if nginx is not None and nginx.returncode is None:
            nginx.terminate()
            await asyncio.wait_for(nginx.wait(), 10)
        await asyncio.gather(*(w.aclose() for w in workers))
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--static", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(_main(args.static.resolve()))


if __name__ == "__main__":
    main()
