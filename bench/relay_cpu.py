"""Server CPU per token on a realistic relay, beside the same work with no framework.

Three processes, as in production: a fake Anthropic upstream (`_load_upstream.py`,
its own process, streaming each reply at `--pace` tokens/s), the server under test,
and the load generators (`_load_client.py`). For each N in `--streams` (default 50
and 150 answers started over `--ramp` s, `--tokens` tokens each) four servers are
measured in the same run, one after the other, against the same upstream:

* `raw`: uvicorn + Starlette forwarding the upstream's bytes unparsed (aiohttp):
  the floor, what reading and writing the bytes costs;
* `sdk`: uvicorn + Starlette relaying the text deltas through the `anthropic` SDK
  alone (`_relay_refs.py`);
* `floor`: the SDK making the request, the body read and parsed as pagechat reads it
  and each text delta framed as pagechat frames it, and nothing else: the least a
  relay with pagechat's wire format and the SDK does (`_relay_refs.floor_app`);
* `pagechat`: `pagechat serve` with the Anthropic provider, a real turn per answer
  (authentication, the conversation stored, the agent loop, the run log, SSE),
  exactly as `bench/load.py` drives it.

The server's CPU comes from its own counters (psutil, user + system, threads
included) over the window in which the streams run, divided by the tokens
delivered. Also per server: first token p50/p99 from the request, added
inter-token delay p99 (what the relay adds to the upstream's gaps), RSS per
stream, errors. Each server runs `--rounds` times at each N (default 3), the servers
in turn within a round: this machine's speed swings by a third from one minute to the
next, so one run of each says little. The summary gives the medians over the rounds,
pagechat's ratio to each reference (of the medians, and per round); the targets
(issue 14) are <= 80 us per token and <= 1.5x the raw relay at 150 answers, and a
first token p99 under 500 ms (in every round) with all 150 answers streaming at once.

At the target N, each round also runs the raw relay, the floor and pagechat with
`--split-tokens` tokens per answer (default 2; 0 skips it): their CPU per answer is what
an answer's start and end cost. The summary splits each server's CPU per token into that
share and the rest (streaming), and gives two bounds on the ratio to the raw relay:
pagechat with the floor's cost per answer and its own per token
(`ratio_to_raw_with_floor_per_answer`), and with its own per answer and the floor's per
token (`ratio_to_raw_with_floor_per_token`). Each is what the ratio would be if all of
pagechat's work on that side beyond the floor's were gone.

`--profile DIR` records pagechat with py-spy over the same window (collapsed
stacks, `DIR/server-N.txt`). Prints one JSON object per server, N and round, then a
summary.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
import load
from _load_upstream import message_for, tokens

HERE = Path(__file__).resolve().parent
TARGETS = {
    "streams": 150,
    "us_per_token_max": 80.0,
    "ratio_to_raw_max": 1.5,
    "first_token_p99_ms_max": 500.0,
}
_REFERENCES = ("raw", "sdk", "floor")


def _request(port: int, key: str, n_tokens: int) -> str:
    body = json.dumps({"message": message_for(key, n_tokens)})
    return (
        f"POST /relay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nAccept: text/event-stream\r\n"
        f"Content-Length: {len(body.encode())}\r\nConnection: close\r\n\r\n{body}"
    )


def _warm_up(base: str, n_tokens: int) -> None:
    body = {"message": message_for("warmup", n_tokens)}
    with httpx.stream("POST", f"{base}/relay", json=body, timeout=30) as r:
        r.raise_for_status()
        for _ in r.iter_bytes():
            pass


def run_reference(
    kind: str,
    n: int,
    args: argparse.Namespace,
    upstream: str,
    procs: load.Processes,
    deadline: load.Deadline,
) -> dict[str, Any]:
    """One reference relay (`raw`, `sdk` or `floor`) under N streams."""
    tmp = Path(tempfile.mkdtemp(prefix=f"pagechat-relay-{kind}-{n}-"))
    procs.scratch.append(tmp)
    port = load._free_port()
    log = tmp / "server.log"
    env = {**os.environ, "ANTHROPIC_BASE_URL": upstream}
    cmd = [sys.executable, "-m", "uvicorn", "--factory", f"_relay_refs:{kind}_app"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log"]
    cmd += ["--log-level", "warning", "--loop", "uvloop", "--http", "httptools"]
    server = procs.start(
        cmd,
        log=log,
        env=env,
        cwd=HERE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        load._wait_http(f"{base}/health", server, deadline, log)
        _warm_up(base, 5)
        keys = [f"{kind[0]}{i:04d}" for i in range(n)]
        window = load.drive_streams(
            keys,
            argparse.Namespace(**{**vars(args), "profile": None}),
            port=port,
            server_pid=server.pid,
            request=lambda k: _request(port, k, args.tokens),
            upstream=upstream,
            procs=procs,
            deadline=deadline,
            tmp=tmp,
        )
    finally:
        procs.stop(server, sig=signal.SIGINT, grace=10)
    checks = [
        load._check_stream(r, tokens(r["key"], args.tokens), window.timings.get(r["key"]))
        for r in window.records
    ]
    # The raw relay forwards Anthropic's own events, which number nothing: only the text counts.
    errors = [c for c in checks if c["errors"] or not c["text_ok"]]
    return _figures(kind, n, args, window, checks, errors)


def _figures(
    kind: str,
    n: int,
    args: argparse.Namespace,
    window: load.Window,
    checks: list[dict[str, Any]],
    errors: list[dict[str, Any]],
) -> dict[str, Any]:
    added = sorted(x for c in checks for x in c["added_ms"])
    ttft = sorted(c["ttft_ms"] for c in checks if c["ttft_ms"] is not None)
    return {
        "bench": "relay_cpu",
        "server": kind,
        "streams": n,
        "tokens": args.tokens,
        "pace_tokens_per_s": args.pace,
        "errors": len(errors),
        "error_samples": sorted({e for c in errors for e in c["errors"]})[:3],
        "server_cpu_s": round(window.sampler.cpu, 3),
        "us_per_token": round(window.sampler.cpu / (n * args.tokens) * 1e6, 1),
        "first_token_ms": {"p50": load._pct(ttft, 50), "p99": load._pct(ttft, 99)}
        if ttft
        else None,
        "added_delay_p99_ms": round(load._pct(added, 99), 2) if added else None,
        "rss_per_stream_kb": round((window.sampler.peak - window.baseline) / n / 1024, 1),
        "streaming_peak": window.up_stats["peak_active"],
        "other_cpu_share": round(window.other_cpu / window.run_s, 2) if window.run_s else None,
    }


def _pagechat(
    n: int,
    args: argparse.Namespace,
    upstream: str,
    procs: load.Processes,
    deadline: load.Deadline,
) -> dict[str, Any]:
    result = load.run_level(n, args, upstream, procs, deadline)
    figures = {
        "bench": "relay_cpu",
        "server": "pagechat",
        "streams": n,
        "tokens": args.tokens,
        "pace_tokens_per_s": args.pace,
        "errors": result["errors"] + result["messages"]["lost"],
        "error_samples": result["error_samples"],
        "server_cpu_s": result["cpu_s"]["server"],
        "us_per_token": result["server_cpu_us_per_token"],
        "first_token_ms": {k: result["ttft_ms"][k] for k in ("p50", "p99")},
        "added_delay_p99_ms": result["added_delay_ms"]["p99"],
        "rss_per_stream_kb": result["rss_per_stream_kb"],
        "streaming_peak": result["streaming_peak"],
        "other_cpu_share": result["other_load"]["other_cpu_share"],
        "lost_events": result["lost_events"],
        "stored_ok": result["messages"]["stored_ok"],
    }
    return figures


def _median(values: list[float]) -> float:
    return float(statistics.median(values))


def _split(
    level: dict[str, Any], per_answer: dict[str, list[float]], *, tokens: int
) -> dict[str, Any]:
    """Each server's CPU per token, as its answers' start and end and the rest."""
    split: dict[str, Any] = {}
    for kind in ("raw", "floor", "pagechat"):
        whole = level.get(f"{kind}_us_per_token")
        if whole is None or not per_answer.get(kind):
            return {}
        answer_ms = _median(per_answer[kind])
        share = answer_ms * 1e3 / tokens
        split[kind] = {
            "ms_per_answer": round(answer_ms, 2),
            "answer_us_per_token": round(share, 1),
            "streaming_us_per_token": round(whole - share, 1),
        }
    raw = level["raw_us_per_token"]
    ours, floor = split["pagechat"], split["floor"]
    split["ratio_to_raw_with_floor_per_answer"] = round(
        (floor["answer_us_per_token"] + ours["streaming_us_per_token"]) / raw, 2
    )
    split["ratio_to_raw_with_floor_per_token"] = round(
        (ours["answer_us_per_token"] + floor["streaming_us_per_token"]) / raw, 2
    )
    return split


def _summary(results: list[dict[str, Any]], failure: str | None) -> dict[str, Any]:
    # Per server and N, every round's result; the figures are the rounds' medians, and
    # the ratios also per round (pagechat and a reference measured minutes apart).
    by: dict[tuple[str, int], list[dict[str, Any]]] = {}
    per_answer: dict[str, list[float]] = {}
    for r in results:
        if r.get("split"):
            per_answer.setdefault(r["server"], []).append(r["server_cpu_s"] / r["streams"] * 1e3)
        else:
            by.setdefault((r["server"], r["streams"]), []).append(r)
    levels: dict[str, Any] = {}
    for n in sorted({r["streams"] for r in results}):
        ours = by.get(("pagechat", n))
        if not ours:
            continue
        mine = [r["us_per_token"] for r in ours]
        level: dict[str, Any] = {"pagechat_us_per_token": _median(mine), "rounds": len(ours)}
        for ref in _REFERENCES:
            other = [r["us_per_token"] for r in by.get((ref, n), []) if r["us_per_token"]]
            if other:
                level[f"{ref}_us_per_token"] = _median(other)
                level[f"ratio_to_{ref}"] = round(_median(mine) / _median(other), 2)
                level[f"ratio_to_{ref}_per_round"] = [
                    round(a / b, 2) for a, b in zip(mine, other, strict=False)
                ]
        floor, raw = level.get("floor_us_per_token"), level.get("raw_us_per_token")
        if floor is not None and raw:
            # How much of the allowed ratio the SDK's request and the parsing already use.
            level["floor_ratio_to_raw"] = round(floor / raw, 2)
        levels[str(n)] = level
    at = by.get(("pagechat", int(TARGETS["streams"])))
    level = levels.get(str(TARGETS["streams"]), {})
    if at and per_answer:
        level["split"] = _split(level, per_answer, tokens=at[0]["tokens"])
    met: dict[str, bool] = {}
    if at:
        met["us_per_token"] = level["pagechat_us_per_token"] <= TARGETS["us_per_token_max"]
        if "ratio_to_raw" in level:
            met["ratio_to_raw"] = level["ratio_to_raw"] <= TARGETS["ratio_to_raw_max"]
        # The worst round: a first token late in any of them is late.
        p99 = max((r["first_token_ms"] or {}).get("p99", float("inf")) for r in at)
        met["first_token_p99"] = p99 < TARGETS["first_token_p99_ms_max"]
        met["all_streaming"] = all(r["streaming_peak"] >= r["streams"] for r in at)
        met["no_errors"] = all(r["errors"] == 0 for r in at)
    return {
        "bench": "relay_cpu",
        "summary": True,
        "levels": levels,
        "targets": TARGETS,
        "met": met,
        "all_met": bool(met) and all(met.values()) and failure is None,
        "failure": failure,
        "machine": load._machine(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", default="50,150", help="comma-separated N values")
    parser.add_argument("--tokens", type=int, default=200, help="tokens per reply")
    parser.add_argument("--pace", type=float, default=50.0, help="upstream tokens per second")
    parser.add_argument("--ramp", type=float, default=1.0, help="seconds over which streams start")
    parser.add_argument("--users", type=int, default=25, help="pagechat accounts")
    parser.add_argument("--clients", type=int, default=2, help="load-generator processes")
    parser.add_argument("--servers", default="raw,sdk,floor,pagechat", help="which servers to run")
    parser.add_argument(
        "--rounds", type=int, default=3, help="times each server runs at each N, interleaved"
    )
    parser.add_argument(
        "--split-tokens",
        type=int,
        default=2,
        help="tokens per answer of the start-and-end runs at the target N (0: none)",
    )
    parser.add_argument("--deadline", type=float, default=1500.0, help="overall time limit (s)")
    parser.add_argument("--quiet-wait", type=float, default=30.0)
    parser.add_argument("--profile", metavar="DIR", help="py-spy pagechat into DIR")
    parser.add_argument(
        "--server-env", action="append", metavar="KEY=VALUE", help="a setting for pagechat"
    )
    args = parser.parse_args()
    args.keep = False
    args.app = None
    levels = [int(x) for x in args.streams.split(",") if x.strip()]
    servers = [s.strip() for s in args.servers.split(",") if s.strip()]
    if not levels or min(levels) < 1 or not set(servers) <= {"raw", "sdk", "floor", "pagechat"}:
        parser.error("--streams must be positive numbers, --servers from raw,sdk,floor,pagechat")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.split_tokens < 0:
        parser.error("--split-tokens must be 0 or more")

    deadline = load.Deadline(args.deadline)
    procs = load.Processes()
    atexit.register(procs.stop_all)
    load.stop_on_signals()
    results: list[dict[str, Any]] = []
    failure: str | None = None
    tmp = Path(tempfile.mkdtemp(prefix="pagechat-relay-upstream-"))
    try:
        upstream, args.upstream_pid = load.start_upstream(procs, args.pace, deadline, tmp)
        for n in levels:
            for round_ in range(1, args.rounds + 1):
                # Every server once per round, in turn: a slow minute of this shared
                # machine then weighs on each of them, and the medians leave it out.
                for kind in servers:
                    if kind == "pagechat":
                        result = _pagechat(n, args, upstream, procs, deadline)
                    else:
                        result = run_reference(kind, n, args, upstream, procs, deadline)
                    result["round"] = round_
                    results.append(result)
                    print(json.dumps(result), flush=True)
                if n != TARGETS["streams"] or not args.split_tokens:
                    continue
                short = argparse.Namespace(
                    **{**vars(args), "tokens": args.split_tokens, "profile": None}
                )
                for kind in [k for k in servers if k in ("raw", "floor", "pagechat")]:
                    if kind == "pagechat":
                        result = _pagechat(n, short, upstream, procs, deadline)
                    else:
                        result = run_reference(kind, n, short, upstream, procs, deadline)
                    result.update(round=round_, split=True)
                    results.append(result)
                    print(json.dumps(result), flush=True)
    except (load.DeadlineExceeded, RuntimeError, OSError, httpx.HTTPError) as exc:
        failure = f"{type(exc).__name__}: {exc}"
    except KeyboardInterrupt:
        failure = "interrupted"
    finally:
        procs.stop_all()
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(_summary(results, failure)), flush=True)
    return 0 if failure is None else 1


if __name__ == "__main__":
    raise SystemExit(main())
