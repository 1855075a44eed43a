"""Proof under load: N concurrent chat streams through a real `pagechat serve`.

For each N in `--streams` (default 100, 250, 500) the benchmark

* starts a fresh `pagechat serve` (uvicorn, one process) on loopback with a new
  SQLite database in a temporary directory, the Anthropic provider pointed at a
  fake upstream (`bench/_load_upstream.py`, its own process, shared by every N)
  that streams each reply at `--pace` tokens/s on an absolute schedule and
  records when it wrote each token;
* creates `--users` accounts (argon2 costs ~0.15 s per hash, so one hash is
  made and stored for all of them) and logs each one in through
  `POST /api/auth/login`; the N conversations are spread round-robin over them;
* runs the N streams from separate load-generator processes
  (`bench/_load_client.py`, raw asyncio sockets, `--clients` of them), each
  request `POST /api/chat/stream` asking for a known token sequence, started
  evenly over `--ramp` seconds;
* samples the server's RSS and CPU (psutil) every 20 ms;
* checks every stream: HTTP 200, no error event, a final `complete`, SSE ids
  exactly 1..n, the streamed text equal to the known sequence and to
  `complete.payload.message`; and every conversation through
  `GET /api/conversations/{id}` as its owner: the user message as sent and a
  `complete` assistant message equal to what the client received.

Added delay per token = (client arrival gap) - (upstream send gap), from the
client's read times and the upstream's write times (both CLOCK_MONOTONIC, which
is system-wide). Relay latency = client arrival - upstream write of the same token.
`streaming_peak` is how many replies the upstream was streaming at once: with the
default ramp (1 s) shorter than a reply (2 s) an ideal server streams all N together.

Other work on the machine competes for the same cores: before each N the
benchmark waits (at most `--quiet-wait` s) for other processes to use under 0.15
of a core, and it reports how much CPU they used during the run (`other_load`).

Prints one JSON object per N, then a summary line with the targets (at 500
streams: all of them streaming at once (>= 95 %), 0 errors, 0 lost messages,
added-delay p99 < 20 ms, < 200 KB RSS per stream) marked met or unmet.
Everything is bounded by `--deadline` seconds; subprocesses are stopped on exit,
on errors and on Ctrl-C (or SIGTERM).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import json
import os
import platform
import re
import resource
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psutil
from _load_upstream import message_for, tokens

HERE = Path(__file__).resolve().parent
PASSWORD = "load-bench-password"
TARGETS: dict[str, float] = {
    "streams": 500,
    "errors_max": 0,
    "lost_messages_max": 0,
    "added_delay_p99_ms_max": 20.0,
    "rss_per_stream_kb_max": 200.0,
    "concurrency_share_min": 0.95,
}
UNLIMITED_QUOTAS = json.dumps(
    {"user": {"concurrent_answers": 100_000, "turns_per_minute": 100_000}}
)

_SCRUBBED_ENV = ("PAGECHAT_", "ANTHROPIC_", "OPENAI_", "DATABASE_URL")
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Timeout)\w*: ")


class DeadlineExceeded(Exception):
    pass


class Deadline:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self, cap: float | None = None) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise DeadlineExceeded("the benchmark's overall deadline passed")
        return left if cap is None else min(cap, left)


# -- processes ---------------------------------------------------------------------------


class Processes:
    """Every subprocess the benchmark starts; all stopped on the way out, whatever happens."""

    def __init__(self) -> None:
        self._procs: list[subprocess.Popen[bytes]] = []
        self._logs: list[Any] = []
        self.scratch: list[Path] = []
        """Temporary directories removed by `stop_all`."""

    def start(self, cmd: list[str], *, log: Path, **kwargs: Any) -> subprocess.Popen[bytes]:
        out = log.open("wb")
        self._logs.append(out)
        # A session of its own: a Ctrl-C reaches us only, and we stop them in order.
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **kwargs
        )
        self._procs.append(proc)
        return proc

    @staticmethod
    def stop(
        proc: subprocess.Popen[bytes], *, sig: int = signal.SIGTERM, grace: float = 10
    ) -> None:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    def stop_all(self) -> None:
        for proc in reversed(self._procs):
            self.stop(proc, grace=5)
        self._procs.clear()
        for out in self._logs:
            out.close()
        self._logs.clear()
        for path in self.scratch:
            shutil.rmtree(path, ignore_errors=True)
        self.scratch.clear()


def stop_on_signals() -> None:
    """SIGTERM and SIGINT end the benchmark as Ctrl-C does, so `finally` stops every process."""

    def _terminate(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, _terminate)
    # Also when started with SIGINT ignored (a background job of a non-interactive shell).
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_http(url: str, proc: subprocess.Popen[bytes], deadline: Deadline, log: Path) -> None:
    """Until `url` answers 200, the process dies (an error with its log) or 30 s pass."""
    stop = time.monotonic() + deadline.left(30)
    while time.monotonic() < stop:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"{proc.args!r} exited with {proc.returncode}:\n{tail}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code == 200:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer within 30 s")


def _pagechat_cmd() -> list[str]:
    script = Path(sys.executable).with_name("pagechat")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pagechat.cli"]


# -- accounts ----------------------------------------------------------------------------


async def _create_users_async(database_url: str, emails: list[str]) -> None:
    from pagechat.auth.passwords import hash_password
    from pagechat.store import create_engine, create_sessionmaker, upgrade_async
    from pagechat.store.users import create_user

    engine = create_engine(database_url)
    try:
        await upgrade_async(engine)
        # What `pagechat users create` does, with one argon2 hash for every account: the
        # server still verifies each login against it for real.
        password_hash = hash_password(PASSWORD)
        async with create_sessionmaker(engine).begin() as session:
            for email in emails:
                await create_user(session=session, email=email, password_hash=password_hash)
    finally:
        await engine.dispose()


async def _login_all(base: str, emails: list[str], deadline: Deadline) -> list[str]:
    limit = asyncio.Semaphore(4)
    async with httpx.AsyncClient(base_url=base, timeout=deadline.left(60)) as client:

        async def login(email: str) -> str:
            async with limit:
                r = await client.post(
                    "/api/auth/login", json={"email": email, "password": PASSWORD}
                )
                r.raise_for_status()
                token: str = r.json()["access_token"]
                return token

        return list(await asyncio.gather(*(login(e) for e in emails)))


def _warm_up(base: str, token: str, deadline: Deadline) -> None:
    """One short turn: lazily made things (the SDK client, its pool) exist before the baseline."""
    body = {"message": message_for("warmup", 5), "context": {}}
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.stream(
        "POST", f"{base}/api/chat/stream", json=body, headers=headers, timeout=deadline.left(30)
    ) as r:
        r.raise_for_status()
        text = "".join(r.iter_text())
    if '"type":"complete"' not in text:
        raise RuntimeError(f"warm-up turn did not complete: {text[-500:]}")


# -- sampling ----------------------------------------------------------------------------


def _tree(proc: psutil.Process) -> list[psutil.Process]:
    return [proc, *proc.children(recursive=True)]


def _tree_cpu(proc: psutil.Process) -> float:
    """CPU seconds of a process and every process under it."""
    total = 0.0
    for member in _tree(proc):
        with contextlib.suppress(psutil.Error):
            cpu = member.cpu_times()
            total += cpu.user + cpu.system
    return total


def _tree_rss(proc: psutil.Process) -> int:
    total = 0
    for member in _tree(proc):
        with contextlib.suppress(psutil.Error):
            total += member.memory_info().rss
    return total


class Sampler(threading.Thread):
    """The server's RSS every `interval` seconds, and its CPU time over the sampling.

    The server is its process and every process under it: `pagechat serve --workers N`
    runs the app in child processes.
    """

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        super().__init__(daemon=True, name="rss-sampler")
        self.proc = psutil.Process(pid)
        self.interval = interval
        self.peak = 0
        self.samples = 0
        self._stop_event = threading.Event()
        self.cpu_start = _tree_cpu(self.proc)
        self.cpu = 0.0

    def run(self) -> None:
        while not self._stop_event.wait(self.interval):
            with contextlib.suppress(psutil.Error):
                self.peak = max(self.peak, _tree_rss(self.proc))
                self.samples += 1

    def finish(self) -> None:
        self._stop_event.set()
        self.join(5)
        with contextlib.suppress(psutil.Error):
            self.peak = max(self.peak, _tree_rss(self.proc))
            self.cpu = _tree_cpu(self.proc) - self.cpu_start


def _busy_seconds() -> tuple[float, float]:
    """CPU seconds the whole machine spent busy (all cores), and stolen by the hypervisor."""
    t = psutil.cpu_times()
    idle = t.idle + getattr(t, "iowait", 0.0)
    return sum(t) - idle, getattr(t, "steal", 0.0)


def _own_cpu(pids: list[int]) -> float:
    """CPU seconds used so far by these processes (and this one), their threads included."""
    return sum(_cpu_seconds(pid) for pid in [os.getpid(), *pids])


def wait_for_quiet(pids: list[int], *, limit: float, max_share: float) -> dict[str, Any]:
    """Wait (at most `limit` s) until other processes use under `max_share` of a core.

    Other work on the machine (a browser test, a compiler) competes for the same cores and
    shows up as delay that pagechat did not add; the run records how much there was.
    """
    start = time.monotonic()
    share = float("nan")
    while True:
        busy0, _ = _busy_seconds()
        own0 = _own_cpu(pids)
        time.sleep(1.0)
        busy1, _ = _busy_seconds()
        share = max(0.0, (busy1 - busy0) - (_own_cpu(pids) - own0))
        waited = time.monotonic() - start
        if share < max_share or waited >= limit:
            return {
                "quiet": share < max_share,
                "waited_s": round(waited, 1),
                "other_cpu_share": round(share, 2),
            }


def _redis_commands(url: str | None) -> int:
    """Commands the Redis server has processed so far (0 without one)."""
    if not url:
        return 0
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


def _cpu_seconds(pid: int) -> float:
    try:
        cpu = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return 0.0
    return float(cpu.user + cpu.system)


# -- statistics --------------------------------------------------------------------------


def _pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted `values`."""
    if not values:
        return float("nan")
    rank = max(0, min(len(values) - 1, round(p / 100 * len(values) + 0.5) - 1))
    return values[rank]


def _summary(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {}
    return {
        "p50": round(_pct(values, 50), 2),
        "p90": round(_pct(values, 90), 2),
        "p99": round(_pct(values, 99), 2),
        "max": round(values[-1], 2),
    }


def _peak_concurrency(intervals: list[tuple[float, float]]) -> int:
    edges = sorted([(a, 1) for a, _ in intervals] + [(b, -1) for _, b in intervals])
    peak = now = 0
    for _, step in edges:
        now += step
        peak = max(peak, now)
    return peak


# -- one stream's checks ----------------------------------------------------------------


def _check_stream(
    record: dict[str, Any], expected: list[str], sent: list[float] | None
) -> dict[str, Any]:
    """Errors, lost or repeated events, text, and per-token timings for one stream."""
    out: dict[str, Any] = {"errors": [], "missing_ids": 0, "duplicate_ids": 0, "text_ok": False}
    if record["error"]:
        out["errors"].append(f"client: {record['error']}")
    if record["status"] != 200:
        out["errors"].append(f"HTTP {record['status']}: {(record.get('body') or '')[:200]}")
    events: list[list[Any]] = record.get("events") or []
    ids = [e[1] for e in events if isinstance(e[1], int)]
    if ids:
        seen = Counter(ids)
        out["duplicate_ids"] = sum(c - 1 for c in seen.values())
        top = max(ids)
        out["missing_ids"] = sum(1 for i in range(1, top + 1) if i not in seen)
        if ids != sorted(ids):
            out["errors"].append("SSE ids out of order")
    kinds = [e[2] for e in events]
    for e in events:
        if e[2] == "error":
            out["errors"].append(f"error event: {e[3]}")
    if record["status"] == 200 and (not kinds or kinds[-1] != "complete"):
        out["errors"].append(f"no terminal complete event (last: {kinds[-1] if kinds else None})")
    deltas = [(e[0], e[3] or "") for e in events if e[2] == "text_delta"]
    text = "".join(d for _, d in deltas)
    out["text"] = text
    want = "".join(expected)
    out["text_ok"] = text == want
    if not out["text_ok"] and not out["errors"]:
        at = next((i for i, (a, b) in enumerate(zip(text, want, strict=False)) if a != b), None)
        at = min(len(text), len(want)) if at is None else at
        out["mismatch"] = {
            "key": record["key"],
            "at": at,
            "got": text[max(0, at - 20) : at + 40],
            "want": want[max(0, at - 20) : at + 40],
            "got_len": len(text),
            "want_len": len(want),
        }
    final = next((e[3] for e in events if e[2] == "complete"), None)
    out["complete_ok"] = final == text
    t0 = record["t_start"]
    out["ttft_ms"] = (deltas[0][0] - t0) * 1000 if deltas else None
    out["first_event_ms"] = (events[0][0] - t0) * 1000 if events else None
    out["added_ms"] = []
    out["latency_ms"] = []
    if out["text_ok"] and sent is not None and len(sent) == len(expected):
        # The arrival of token i is the read that completed its last character: right
        # whether the server relays deltas one to one, merges or splits them.
        arrivals: list[float] = []
        got = 0
        di = 0
        end = 0
        for word in expected:
            end += len(word)
            while got < end:
                got += len(deltas[di][1])
                di += 1
            arrivals.append(deltas[di - 1][0])
        out["latency_ms"] = [(a - s) * 1000 for a, s in zip(arrivals, sent, strict=True)]
        out["added_ms"] = [
            ((arrivals[i] - arrivals[i - 1]) - (sent[i] - sent[i - 1])) * 1000
            for i in range(1, len(arrivals))
        ]
    return out


async def _stored(
    base: str, checks: list[tuple[str, str, str, str]], deadline: Deadline
) -> dict[str, Any]:
    """`checks`: (token, conversation_id, message sent, text received) per stream."""
    limit = asyncio.Semaphore(8)
    problems: Counter[str] = Counter()
    ok = 0
    async with httpx.AsyncClient(base_url=base, timeout=deadline.left(60)) as client:

        async def one(token: str, cid: str, sent: str, received: str) -> str | None:
            async with limit:
                r = await client.get(
                    f"/api/conversations/{cid}", headers={"Authorization": f"Bearer {token}"}
                )
            if r.status_code != 200:
                return f"GET conversation: HTTP {r.status_code}"
            messages = r.json().get("messages", [])
            users = [m for m in messages if m["role"] == "user"]
            assistants = [m for m in messages if m["role"] == "assistant"]
            if len(users) != 1 or users[0]["content"] != sent:
                return "user message missing or different"
            if len(assistants) != 1:
                return f"{len(assistants)} assistant messages"
            if assistants[0]["status"] != "complete":
                return f"assistant message {assistants[0]['status']}"
            if assistants[0]["content"] != received:
                return "assistant message differs from the stream"
            return None

        for problem in await asyncio.gather(*(one(*c) for c in checks)):
            if problem is None:
                ok += 1
            else:
                problems[problem] += 1
    return {"ok": ok, "problems": dict(problems)}


def _log_errors(log: Path) -> dict[str, int]:
    """The exception lines of the server's tracebacks (`sqlite3.OperationalError: ...`), counted."""
    found: Counter[str] = Counter()
    for line in log.read_text(errors="replace").splitlines():
        if _EXCEPTION_LINE.match(line):
            found[line[:160]] += 1
    return dict(found)


def _db_counts(db: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as c:
        rows = c.execute("SELECT role, status, count(*) FROM messages GROUP BY role, status")
        return {f"{role}:{status}": n for role, status, n in rows}


# -- one level ---------------------------------------------------------------------------


def _request(port: int, token: str, key: str, n_tokens: int) -> str:
    body = json.dumps({"message": message_for(key, n_tokens), "context": {}})
    return (
        f"POST /api/chat/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        f"Accept: text/event-stream\r\nContent-Length: {len(body.encode())}\r\n"
        f"Connection: close\r\n\r\n{body}"
    )


def _start_profiler(
    args: argparse.Namespace, pid: int, n: int, procs: Processes, tmp: Path
) -> subprocess.Popen[bytes] | None:
    """py-spy on the server for exactly the streaming window (`--profile DIR`)."""
    profile = getattr(args, "profile", None)
    if not profile:
        return None
    out = Path(profile) / f"server-{n}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    # --subprocesses: with --workers the answers run in children of the supervisor.
    cmd = [spy, "record", "--pid", str(pid), "--rate", "400", "--format", "raw", "--nonblocking"]
    cmd += ["--subprocesses", "--output", str(out)]
    return procs.start(cmd, log=tmp / "py-spy.log")


def _stop_profiler(profiler: subprocess.Popen[bytes] | None) -> None:
    if profiler is not None:
        # py-spy writes its output when interrupted.
        profiler.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            profiler.wait(30)


@dataclass
class Window:
    """What `drive_streams` saw while the streams ran."""

    records: list[dict[str, Any]]
    timings: dict[str, list[float]]
    up_stats: dict[str, Any]
    sampler: Sampler
    baseline: int
    quiet: dict[str, Any]
    run_s: float
    rss_after: int
    up_cpu: float
    client_cpu: float
    other_cpu: float
    steal: float
    clients: int


def drive_streams(
    keys: list[str],
    args: argparse.Namespace,
    *,
    port: int,
    server_pid: int,
    request: Callable[[str], str],
    upstream: str,
    procs: Processes,
    deadline: Deadline,
    tmp: Path,
) -> Window:
    """Run one stream per key from the load-generator processes, measuring the server.

    `request(key)` is the raw HTTP request of that stream. Streams start evenly over
    `args.ramp` seconds; the server's CPU and RSS are sampled over exactly that window.
    """
    n = len(keys)
    httpx.get(f"{upstream}/_timings?clear=1", timeout=10)
    quiet = wait_for_quiet(
        [server_pid, args.upstream_pid], limit=deadline.left(args.quiet_wait), max_share=0.15
    )
    baseline = min(_tree_rss(psutil.Process(server_pid)) for _ in range(3))
    n_clients = max(1, min(args.clients, n))
    stream_timeout = args.ramp + 3 * args.tokens / args.pace + 60
    start_at = time.monotonic() + 1.5  # time for the client processes to start
    client_procs = []
    outs = []
    for c in range(n_clients):
        mine = [
            {"key": k, "at": args.ramp * i / n, "request": request(k)}
            for i, k in enumerate(keys)
            if i % n_clients == c
        ]
        spec = {
            "host": "127.0.0.1",
            "port": port,
            "start_at": start_at,
            "timeout": stream_timeout,
            "streams": mine,
        }
        spec_path = tmp / f"client{c}.json"
        spec_path.write_text(json.dumps(spec))
        out = tmp / f"client{c}.out.json"
        outs.append(out)
        client_procs.append(
            procs.start(
                [sys.executable, str(HERE / "_load_client.py"), str(spec_path), str(out)],
                log=tmp / f"client{c}.log",
            )
        )
    profiler = _start_profiler(args, server_pid, n, procs, tmp)
    sampler = Sampler(server_pid)
    sampler.start()
    up_cpu0 = _cpu_seconds(args.upstream_pid)
    me0 = _cpu_seconds(os.getpid())
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy0, steal0 = _busy_seconds()
    t_run = time.monotonic()
    try:
        for proc in client_procs:
            proc.wait(deadline.left(stream_timeout + 30))
    except subprocess.TimeoutExpired:
        raise DeadlineExceeded("load clients did not finish in time") from None
    finally:
        sampler.finish()
        _stop_profiler(profiler)
    run_s = time.monotonic() - t_run
    busy1, steal1 = _busy_seconds()
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Only the client processes (and py-spy) end, and are reaped, in this window.
    client_cpu = (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)
    up_cpu = _cpu_seconds(args.upstream_pid) - up_cpu0
    me = _cpu_seconds(os.getpid()) - me0
    other_cpu = max(0.0, (busy1 - busy0) - sampler.cpu - up_cpu - client_cpu - me)
    rss_after = _tree_rss(psutil.Process(server_pid))

    records: list[dict[str, Any]] = []
    for c, out in enumerate(outs):
        if client_procs[c].returncode != 0 or not out.exists():
            tail = (tmp / f"client{c}.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"load client {c} failed:\n{tail}")
        data = json.loads(out.read_text())
        data.pop()  # the client's own CPU figure; RUSAGE_CHILDREN counts it whole
        records.extend(data)
    timings: dict[str, list[float]] = httpx.get(f"{upstream}/_timings", timeout=30).json()
    if args.keep:
        (tmp / "upstream_timings.json").write_text(json.dumps(timings))
    up_stats = httpx.get(f"{upstream}/_stats", timeout=10).json()
    return Window(
        records=records,
        timings=timings,
        up_stats=up_stats,
        sampler=sampler,
        baseline=baseline,
        quiet=quiet,
        run_s=run_s,
        rss_after=rss_after,
        up_cpu=up_cpu,
        client_cpu=client_cpu,
        other_cpu=other_cpu,
        steal=steal1 - steal0,
        clients=n_clients,
    )


def run_level(
    n: int, args: argparse.Namespace, upstream: str, procs: Processes, deadline: Deadline
) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix=f"pagechat-load-{n}-"))
    if not args.keep:
        procs.scratch.append(tmp)
    server: subprocess.Popen[bytes] | None = None
    try:
        db = tmp / "pagechat.db"
        database_url = f"sqlite+aiosqlite:///{db}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED_ENV)}
        env.update(
            DATABASE_URL=database_url,
            PAGECHAT_SECRET=secrets.token_urlsafe(48),
            PAGECHAT_STATE_DIR=str(tmp / "state"),
            PAGECHAT_PROVIDER="anthropic",
            PAGECHAT_MODEL="claude-bench",
            ANTHROPIC_API_KEY="bench-key",
            ANTHROPIC_BASE_URL=upstream,
            # A capacity test, not a fairness one: each account holds many streams at once.
            PAGECHAT_QUOTAS=UNLIMITED_QUOTAS,
        )
        # `--server-env KEY=VALUE`: a setting to compare (A/B) without editing the code.
        env.update(item.split("=", 1) for item in getattr(args, "server_env", None) or [])
        redis_url = getattr(args, "redis_url", None)
        workers = getattr(args, "workers", 1)
        if redis_url:
            env["REDIS_URL"] = redis_url
        n_users = max(1, min(n, args.users))
        emails = [f"load{u:03d}@example.com" for u in range(n_users)]
        asyncio.run(_create_users_async(database_url, emails))

        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        log = tmp / "server.log"
        server = procs.start(
            [*_pagechat_cmd(), "serve", "--host", "127.0.0.1", "--port", str(port)]
            + (["--app", args.app] if args.app else [])
            + (["--workers", str(workers)] if workers > 1 else []),
            log=log,
            env=env,
            cwd=tmp,
        )
        _wait_http(f"{base}/api/health", server, deadline, log)
        user_tokens = asyncio.run(_login_all(base, emails, deadline))
        _warm_up(base, user_tokens[0], deadline)
        redis_commands0 = _redis_commands(redis_url)
        # The streams, dealt over the users; user u owns streams u, u+U, ...
        keys = [f"s{i:04d}" for i in range(n)]
        owner = {k: user_tokens[i % n_users] for i, k in enumerate(keys)}
        window = drive_streams(
            keys,
            args,
            port=port,
            server_pid=server.pid,
            request=lambda k: _request(port, owner[k], k, args.tokens),
            upstream=upstream,
            procs=procs,
            deadline=deadline,
            tmp=tmp,
        )
        redis_commands = _redis_commands(redis_url) - redis_commands0
        records, timings, up_stats = window.records, window.timings, window.up_stats
        sampler, baseline, quiet = window.sampler, window.baseline, window.quiet
        run_s, rss_after = window.run_s, window.rss_after
        up_cpu, client_cpu, other_cpu = window.up_cpu, window.client_cpu, window.other_cpu
        n_clients = window.clients
        expected = tokens  # (key, n) -> the known sequence
        checks = {
            r["key"]: _check_stream(r, expected(r["key"], args.tokens), timings.get(r["key"]))
            for r in records
        }
        stored = asyncio.run(
            _stored(
                base,
                [
                    (
                        owner[r["key"]],
                        r["conversation_id"],
                        message_for(r["key"], args.tokens),
                        checks[r["key"]]["text"],
                    )
                    for r in records
                    if r["conversation_id"]
                ],
                deadline,
            )
        )
        db_counts = _db_counts(db)
        server_errors = _log_errors(log)
    finally:
        if server is not None:
            # SIGINT: uvicorn's graceful shutdown (live runs are stopped and stored).
            procs.stop(server, sig=signal.SIGINT, grace=15)
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    errors = [c for c in checks.values() if c["errors"]]
    error_kinds = Counter(e.split(":")[0] for c in errors for e in c["errors"])
    samples = sorted({e for c in errors for e in c["errors"]})[:3]
    added = [x for c in checks.values() for x in c["added_ms"]]
    latency = [x for c in checks.values() for x in c["latency_ms"]]
    ttft = [c["ttft_ms"] for c in checks.values() if c["ttft_ms"] is not None]
    timed = sum(1 for c in checks.values() if c["latency_ms"])
    intervals = [(r["t_head"], r["t_end"]) for r in records if r["t_head"] and r["status"] == 200]
    heads = [(r["t_head"] - r["t_start"]) * 1000 for r in records if r["t_head"]]
    first_start = min((r["t_start"] for r in records), default=0.0)
    last_head = max((r["t_head"] for r in records if r["t_head"]), default=first_start)
    silent = [c for c in checks.values() if not c["errors"] and not c["text_ok"]]
    stored_ok = stored["ok"]
    lost_messages = n - stored_ok
    per_stream_kb = (sampler.peak - baseline) / n / 1024
    added_p99 = _pct(sorted(added), 99) if added else float("inf")
    result: dict[str, Any] = {
        "bench": "load",
        "streams": n,
        "users": n_users,
        "tokens": args.tokens,
        "pace_tokens_per_s": args.pace,
        "ramp_s": args.ramp,
        "client_processes": n_clients,
        "app": args.app or "pagechat",
        "workers": workers,
        "run_log": "redis" if redis_url else "memory",
        "redis_commands_per_token": round(redis_commands / (n * args.tokens), 3)
        if redis_url
        else None,
        "errors": len(errors),
        "error_kinds": dict(error_kinds),
        "error_samples": samples,
        "lost_events": sum(c["missing_ids"] for c in checks.values()),
        "duplicated_events": sum(c["duplicate_ids"] for c in checks.values()),
        "silent_text_mismatches": len(silent),
        "mismatch_samples": [c["mismatch"] for c in silent[:3]],
        "complete_mismatches": sum(
            1 for c in checks.values() if not c["errors"] and not c["complete_ok"]
        ),
        "messages": {
            "sent": n,
            "stored_ok": stored_ok,
            "lost": lost_messages,
            "problems": stored["problems"],
            "db_rows": db_counts,
        },
        "response_head_ms": _summary(heads),
        "starts_per_s": round(len(heads) / (last_head - first_start), 1)
        if last_head > first_start
        else None,
        "ttft_ms": _summary(ttft),
        "added_delay_ms": _summary(added),
        "relay_latency_ms": _summary(latency),
        "timed_streams": timed,
        "streaming_peak": up_stats["peak_active"],
        "open_responses_peak": _peak_concurrency(intervals),
        "upstream": up_stats,
        "rss_mb": {
            "baseline": round(baseline / 2**20, 1),
            "peak": round(sampler.peak / 2**20, 1),
            "after": round(rss_after / 2**20, 1),
            "samples": sampler.samples,
        },
        "rss_per_stream_kb": round(per_stream_kb, 1),
        "cpu_s": {
            "server": round(sampler.cpu, 2),
            "upstream": round(up_cpu, 2),
            "clients": round(client_cpu, 2),
        },
        "run_s": round(run_s, 2),
        "server_cpu_share": round(sampler.cpu / run_s, 2) if run_s else None,
        "server_cpu_us_per_token": round(sampler.cpu / (n * args.tokens) * 1e6, 1),
        "server_log_errors": server_errors,
        "other_load": {
            "before_run": quiet,
            "other_processes_cpu_s": round(other_cpu, 2),
            "other_cpu_share": round(other_cpu / run_s, 2) if run_s else None,
            "steal_s": round(window.steal, 2),
        },
    }
    result["met"] = {
        # The streams must really overlap: an ideal server has all N streaming at once when
        # the ramp is shorter than a reply (default 1 s vs 2 s); a slow start path lets only
        # some of them stream together, which would flatter every other figure.
        "concurrency": up_stats["peak_active"] >= TARGETS["concurrency_share_min"] * n,
        "errors": len(errors) <= TARGETS["errors_max"],
        "lost_messages": lost_messages <= TARGETS["lost_messages_max"]
        and result["lost_events"] == 0
        and result["duplicated_events"] == 0
        and result["silent_text_mismatches"] == 0,
        "added_delay_p99": added_p99 < TARGETS["added_delay_p99_ms_max"],
        "rss_per_stream": per_stream_kb < TARGETS["rss_per_stream_kb_max"],
    }
    return result


def _machine() -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpus": os.cpu_count(),
        "cpu": model,
        "ram_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
    }


def start_upstream(procs: Processes, pace: float, deadline: Deadline, tmp: Path) -> tuple[str, int]:
    """The fake upstream in its own process: its URL and pid."""
    up_port = _free_port()
    upstream = f"http://127.0.0.1:{up_port}"
    up_log = tmp / "upstream.log"
    up = procs.start(
        [
            sys.executable,
            str(HERE / "_load_upstream.py"),
            "--port",
            str(up_port),
            "--tokens-per-second",
            str(pace),
        ],
        log=up_log,
    )
    _wait_http(f"{upstream}/_stats", up, deadline, up_log)
    return upstream, up.pid


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", default="100,250,500", help="comma-separated N values")
    parser.add_argument("--tokens", type=int, default=100, help="tokens per reply")
    parser.add_argument("--pace", type=float, default=50.0, help="upstream tokens per second")
    parser.add_argument(
        "--users", type=int, default=25, help="accounts the streams are spread over"
    )
    parser.add_argument("--clients", type=int, default=2, help="load-generator processes")
    parser.add_argument("--ramp", type=float, default=1.0, help="seconds over which streams start")
    parser.add_argument("--deadline", type=float, default=600.0, help="overall time limit (s)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directories")
    parser.add_argument(
        "--server-env", action="append", metavar="KEY=VALUE", help="a setting for the server"
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=60.0,
        help="seconds to wait, before each N, for other processes to go quiet",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="record the server with py-spy while the streams run (collapsed stacks in DIR)",
    )
    parser.add_argument(
        "--app", help="serve this app factory (module:factory) instead of plain pagechat"
    )
    args = parser.parse_args()
    levels = [int(x) for x in args.streams.split(",") if x.strip()]
    if not levels or min(levels) < 1 or args.tokens < 1 or args.pace <= 0:
        parser.error("--streams, --tokens and --pace must be positive")

    deadline = Deadline(args.deadline)
    procs = Processes()
    atexit.register(procs.stop_all)
    stop_on_signals()

    results: list[dict[str, Any]] = []
    failure: str | None = None
    tmp = Path(tempfile.mkdtemp(prefix="pagechat-load-upstream-"))
    procs.scratch.append(tmp)
    try:
        upstream, args.upstream_pid = start_upstream(procs, args.pace, deadline, tmp)
        for n in levels:
            result = run_level(n, args, upstream, procs, deadline)
            results.append(result)
            print(json.dumps(result), flush=True)
    except (DeadlineExceeded, RuntimeError, OSError, httpx.HTTPError) as exc:
        failure = f"{type(exc).__name__}: {exc}"
    except KeyboardInterrupt:
        failure = "interrupted"
    finally:
        procs.stop_all()
        shutil.rmtree(tmp, ignore_errors=True)

    at_target = [r for r in results if r["streams"] >= TARGETS["streams"]]
    met = {k: all(r["met"][k] for r in at_target) for k in at_target[0]["met"]} if at_target else {}
    summary = {
        "bench": "load",
        "summary": True,
        "levels": [r["streams"] for r in results],
        "targets": TARGETS,
        "target_level_run": bool(at_target),
        "met": met,
        "all_met": bool(at_target) and all(met.values()) and failure is None,
        "failure": failure,
        "machine": _machine(),
    }
    print(json.dumps(summary), flush=True)
    return 0 if failure is None else 1


if __name__ == "__main__":
    raise SystemExit(main())
