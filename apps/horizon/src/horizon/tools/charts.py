"""Charts of a report and of a stream, as the framework's `chart` payload (built with altair).

The text says the counts, for the model; the payload draws them, for the user. Both read
through the user's id: another user's report or stream is "not found".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.tools import ToolResult, chart_payload

from ..domain import get_report, get_stream, list_reports, report_articles
from ..tool_specs import CHART_REPORT, CHART_STREAM
from .common import error, from_spec, one_line, scoped

__all__ = ["CHART_REPORT_TOOL", "CHART_STREAM_TOOL", "chart_report", "chart_stream"]

_MAX_ARTICLES = 2000
_UNCATEGORISED = "Uncategorised"
_UNDATED = "Unknown"


def _bars(rows: list[dict[str, Any]], field: str, title: str, sort: str | list[str]) -> Any:
    import altair as alt  # a heavy import, only paid when a chart is drawn

    return (
        alt.Chart(alt.InlineData(values=rows), title=title)
        .mark_bar()
        .encode(
            x=alt.X(f"{field}:N", sort=sort, title=None, axis=alt.Axis(labelAngle=-30)),
            y=alt.Y("articles:Q", title="Articles", axis=alt.Axis(tickMinStep=1)),
            tooltip=[f"{field}:N", "articles:Q"],
        )
        .properties(width=260, height=180)
    )


@scoped
async def chart_report(params: dict[str, Any], session: AsyncSession, user_id: str) -> ToolResult:
    import altair as alt

    report_id = int(params["report_id"])
    report = await get_report(session=session, user_id=user_id, report_id=report_id)
    if report is None:
        return error(f"You have no report with ID {report_id}.")
    entries = await report_articles(
        session=session, user_id=user_id, report_id=report_id, limit=_MAX_ARTICLES
    )
    categories = Counter((e.category or "").strip() or _UNCATEGORISED for e in entries)
    years = Counter(str(e.year) if e.year else _UNDATED for e in entries)
    by_category = [{"category": c, "articles": n} for c, n in categories.most_common()]
    by_year = [{"year": y, "articles": years[y]} for y in sorted(years)]
    chart = alt.hconcat(
        _bars(by_category, "category", "Per category", "-y"),
        _bars(by_year, "year", "Per publication year", sorted(years)),
    )
    title = f"Report {report.id}: {one_line(report.stream_name)}, {report.report_date.isoformat()}"
    text = "\n".join(
        [
            f"Charted report {report.id} ({len(entries)} articles).",
            "Per category: " + ", ".join(f"{c} {n}" for c, n in categories.most_common()),
            "Per publication year: " + ", ".join(f"{y} {years[y]}" for y in sorted(years)),
        ]
    )
    return ToolResult(text, chart_payload(chart.to_dict(), title=title))


@scoped
async def chart_stream(params: dict[str, Any], session: AsyncSession, user_id: str) -> ToolResult:
    import altair as alt

    stream_id = int(params["stream_id"])
    stream = await get_stream(session=session, user_id=user_id, stream_id=stream_id)
    reports = await list_reports(session=session, user_id=user_id, stream_id=stream_id)
    if stream is None or reports is None:
        return error(f"You have no research stream with ID {stream_id}.")
    if not reports:
        return ToolResult(f"Stream {stream_id} has no reports yet: there is nothing to chart.")
    points = sorted(
        ({"date": r.report_date.isoformat(), "articles": r.article_count} for r in reports),
        key=lambda p: str(p["date"]),
    )
    chart = (
        alt.Chart(alt.InlineData(values=points), title="Articles per report")
        .mark_line(point=True)
        .encode(
            x=alt.X("date:T", title="Report date"),
            y=alt.Y("articles:Q", title="Articles", axis=alt.Axis(tickMinStep=1)),
            tooltip=["date:T", "articles:Q"],
        )
        .properties(width=520, height=220)
    )
    text = f"Charted stream {stream_id} over {len(points)} reports: " + ", ".join(
        f"{p['date']} {p['articles']}" for p in points
    )
    title = f"Stream {stream_id}: {one_line(stream.name)}"
    return ToolResult(text, chart_payload(chart.to_dict(), title=title))


CHART_REPORT_TOOL = from_spec(CHART_REPORT, chart_report)
CHART_STREAM_TOOL = from_spec(CHART_STREAM, chart_stream)
