from __future__ import annotations

import asyncio
import json
from collections.abc import ItemsView

import pytest

from pagechat.events import Complete, TextDelta
from pagechat.protocol import ChatResponsePayload
from pagechat.runs import Run, RunManager, RunNotFound


async def _types(run: Run) -> list[str]:
    return [json.loads(d)["type"] async for _, d in run.log.follow()]


async def test_a_run_that_completes_closes_its_log() -> None:
    runs = RunManager()

    async def body(run: Run) -> None:
        run.emit(TextDelta(text="hi"))
        run.emit(Complete(payload=ChatResponsePayload(message="hi")))

    run = runs.start(owner_id="a", conversation_id=None, body=body)
    assert await _types(run) == ["text_delta", "complete"]
    assert run.terminal == "complete" and run.done


async def test_cancel_ends_the_log_with_cancelled() -> None:
    runs = RunManager()

    async def body(run: Run) -> None:
        run.emit(TextDelta(text="partial"))
        await asyncio.sleep(30)

    run = runs.start(owner_id="a", conversation_id=None, body=body)
    await asyncio.sleep(0.01)
    assert run.cancel()
    types = await asyncio.wait_for(_types(run), 1.0)
    assert types == ["text_delta", "cancelled"]
    assert not run.cancel()  # already finished


async def test_a_crashing_body_ends_with_an_error_event() -> None:
    runs = RunManager()

    async def body(run: Run) -> None:
        raise RuntimeError("secret internals")

    run = runs.start(owner_id="a", conversation_id=None, body=body)
    frames = [json.loads(d) async for _, d in run.log.follow()]
    assert frames[-1]["type"] == "error" and "secret" not in frames[-1]["message"]


async def test_another_users_run_is_not_found() -> None:
    runs = RunManager()

    async def body(run: Run) -> None:
        run.emit(Complete(payload=ChatResponsePayload(message="")))

    run = runs.start(owner_id="alice", conversation_id=None, body=body)
    assert runs.get(run.id, owner_id="alice") is run
    with pytest.raises(RunNotFound):
        runs.get(run.id, owner_id="bob")
    with pytest.raises(RunNotFound):
        runs.get("missing", owner_id="alice")


async def test_finished_runs_are_kept_for_the_retention_time_then_dropped() -> None:
    runs = RunManager(retain_seconds=600)

    async def body(run: Run) -> None:
        run.emit(Complete(payload=ChatResponsePayload(message="")))

    kept = runs.start(owner_id="a", conversation_id=None, body=body)
    dropped = runs.start(owner_id="a", conversation_id=None, body=body)
    await asyncio.gather(kept.task, dropped.task)  # type: ignore[arg-type]
    # Time is driven, not waited for: the runs ended this long ago.
    assert kept.finished_at is not None and dropped.finished_at is not None
    kept.finished_at -= 599
    dropped.finished_at -= 601
    runs.start(owner_id="a", conversation_id=None, body=body)  # starting a run sweeps

    assert runs.get(kept.id, owner_id="a") is kept
    with pytest.raises(RunNotFound):
        runs.get(dropped.id, owner_id="a")


def test_default_retention_is_at_least_five_minutes() -> None:
    assert RunManager().retain_seconds >= 300


class _CountedScans(dict[str, Run]):
    scans = 0

    def items(self) -> ItemsView[str, Run]:  # type: ignore[override]
        self.scans += 1
        return super().items()


async def test_a_burst_of_starts_does_not_scan_every_kept_run_for_each_start() -> None:
    # Regression: each start looked at every run kept (600 s of them), so a burst of N
    # starts cost N x kept runs.
    runs = RunManager(retain_seconds=600)
    runs._runs = scans = _CountedScans()

    async def body(run: Run) -> None:
        run.emit(Complete(payload=ChatResponsePayload(message="")))

    started = [runs.start(owner_id="a", conversation_id=None, body=body) for _ in range(200)]
    await asyncio.gather(*(r.task for r in started if r.task is not None))

    assert len(runs.active()) == 0 and len(scans) == 200
    assert scans.scans <= 10  # once, then each time the kept runs doubled
