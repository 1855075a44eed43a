"""No user input holds the event loop: while backtracking patterns of client-declared
schemas are checked, `/api/health` keeps answering (issue 34, item 1).

The bound is generous (normal is a few milliseconds; before RE2 it was seconds):
bench/loop_lag.py measures the figure.
"""

from __future__ import annotations

import asyncio

from pagechat.pages import register_page
from tests.reliability.conftest import Live
from tests.support.hostile_schemas import (
    HOSTILE_TOOLS,
    agui_run,
    health_lags,
    hostile_model,
    tool_results,
)

GENEROUS_SECONDS = 2.0


async def test_health_answers_while_backtracking_patterns_are_checked(live: Live) -> None:
    register_page("ledger")
    model = hostile_model()
    live.use_model(model)
    stop = asyncio.Event()
    probe = asyncio.create_task(health_lags(live.client, stop))

    runs = await asyncio.gather(
        *(
            agui_run(live.client, live.alice.headers, tool, thread=f"t{n}")
            for n, tool in enumerate(HOSTILE_TOOLS)
        )
    )
    stop.set()
    lags = await probe

    assert [events[-1]["type"] for events in runs] == ["RUN_FINISHED"] * len(HOSTILE_TOOLS)
    told = tool_results(model)
    assert len(told) == len(HOSTILE_TOOLS) and all(is_error for _, is_error in told)
    assert any("does not match" in text for text, _ in told)
    assert max(lags) < GENEROUS_SECONDS


async def test_a_pattern_re2_cannot_run_is_a_422_naming_it(live: Live) -> None:
    register_page("ledger")
    tool = {
        "name": "lookaround",
        "description": "A look-ahead RE2 cannot run.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "pattern": "^(?=a)(a+)+$"}},
        },
    }
    body = {
        "threadId": "t",
        "runId": "r",
        "state": {},
        "messages": [{"id": "u1", "role": "user", "content": "Check it."}],
        "tools": [tool],
        "context": [],
        "forwardedProps": {},
    }

    response = await live.client.post("/api/agui/ledger", json=body, headers=live.alice.headers)

    assert response.status_code == 422
    assert "cannot be matched in linear time" in response.json()["detail"]
    assert "lookaround" in response.json()["detail"]
