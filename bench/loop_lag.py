"""Event-loop lag while hostile input is checked: the longest gap between two answers of
`/api/health` (asked back to back, 20 ms apart) while AG-UI runs offer frontend tools
whose schemas hold backtracking patterns and the model calls them with the text that
makes Python's `re` take seconds (issue 34, item 1).

Through a real uvicorn on loopback, the app as `pagechat serve` builds it. Prints one
JSON line. Target: max gap < 250 ms (a run's own work, on a busy 2-core machine: ~120-190 ms;
before RE2: 7 s for two runs, doubling per character).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.hostile_schemas import HOSTILE_TOOLS, agui_run, health_lags, hostile_model

from pagechat.pages import register_page
from pagechat.server.app import create_app_from_settings
from pagechat.testing import running_app


async def _measure(rounds: int) -> dict[str, object]:
    async with running_app(create_app_from_settings, model=hostile_model()) as live:
        register_page("ledger")
        headers = live.account.headers
        # One round first: the first run's one-off work (caches filled) is not lag.
        await asyncio.gather(
            *(agui_run(live.http, headers, t, thread=f"w{t['name']}") for t in HOSTILE_TOOLS)
        )
        stop = asyncio.Event()
        probe = asyncio.create_task(health_lags(live.http, stop))
        for round_ in range(rounds):
            await asyncio.gather(
                *(
                    agui_run(live.http, headers, tool, thread=f"r{round_}-t{n}")
                    for n, tool in enumerate(HOSTILE_TOOLS)
                )
            )
        stop.set()
        gaps = sorted(await probe)
    return {
        "bench": "loop_lag",
        "hostile_runs": rounds * len(HOSTILE_TOOLS),
        "health_answers": len(gaps),
        "gap_p50_ms": round(statistics.median(gaps) * 1000, 2),
        "gap_p99_ms": round(gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))] * 1000, 2),
        "gap_max_ms": round(gaps[-1] * 1000, 2),
        "target_max_ms": 250,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    # 9 rounds of 2 runs: within the default quota of 20 turns a minute.
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(_measure(args.rounds))))


if __name__ == "__main__":
    main()
