"""Chart tools: a report per category and per year, a stream over time, as chart payloads."""

from __future__ import annotations

from typing import Any

from pagechat.tools import CHART, validate_chart_spec
from tests.conftest import Account
from tests.horizon.tools.conftest import Call
from tests.horizon.world import World


def _datasets(spec: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return list(spec["datasets"].values())


async def test_a_report_chart_counts_its_articles_per_category_and_per_year(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "chart_report", {"report_id": world.alice_report})

    assert not ran.result.is_error
    payload = ran.result.payload
    assert payload is not None and payload["type"] == CHART
    spec = payload["data"]["spec"]
    assert validate_chart_spec(spec) is spec
    assert [view["title"] for view in spec["hconcat"]] == ["Per category", "Per publication year"]
    by_category, by_year = _datasets(spec)
    assert sum(row["articles"] for row in by_category) == 8
    assert sum(row["articles"] for row in by_year) == 8
    assert ran.text.startswith(f"Charted report {world.alice_report} (8 articles).")
    assert payload["data"]["title"].startswith(
        f"Report {world.alice_report}: CRISPR and gene editing"
    )


async def test_a_stream_chart_has_one_point_per_report(
    call: Call, alice: Account, world: World
) -> None:
    ran = await call(alice, "chart_stream", {"stream_id": world.alice_stream})

    assert not ran.result.is_error
    payload = ran.result.payload
    assert payload is not None and payload["type"] == CHART
    [points] = _datasets(payload["data"]["spec"])
    assert points and all(set(p) == {"date", "articles"} for p in points)
    assert [p["date"] for p in points] == sorted(p["date"] for p in points)
    assert payload["data"]["spec"]["mark"]["type"] == "line"


async def test_another_users_report_and_stream_cannot_be_charted(
    call: Call, bob: Account, world: World
) -> None:
    report = await call(bob, "chart_report", {"report_id": world.alice_report})
    stream = await call(bob, "chart_stream", {"stream_id": world.alice_stream})

    assert report.result.is_error and report.result.payload is None
    assert stream.result.is_error and stream.result.payload is None
    assert f"You have no report with ID {world.alice_report}" in report.text
