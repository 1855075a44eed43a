from __future__ import annotations

from horizon.offline.portfolio import portfolio_insights, read_stream_line, stream_suggestions
from horizon.page_text import Label, read_page_text
from horizon.pages.streams import build_context
from horizon.payloads import PORTFOLIO_INSIGHTS, STREAM_SUGGESTIONS
from pagechat.tools import schema_error

STREAMS = [
    {
        "id": 1,
        "name": "Cancer immunotherapy",
        "purpose": "PD-1; CTLA-4",
        "topics": ["PD-1 blockade"],
        "report_count": 3,
    },
    {"id": 2, "name": "Melanoma immunotherapy", "topic_count": 4, "report_count": 0},
    {"id": 3, "name": "Heart failure", "topics": ["SGLT2 inhibitors", "Devices", "Ablation"]},
]


def _lines() -> list[str]:
    page = read_page_text(build_context({"streams": STREAMS}))
    return list(page.items(Label.STREAMS))


def test_the_streams_page_lines_read_back() -> None:
    first, second, third = (read_stream_line(line) for line in _lines())
    assert (first.id, first.name, first.purpose, first.topics, first.reports) == (
        1,
        "Cancer immunotherapy",
        "PD-1",  # a purpose holding "; " is cut there, which is all a reader can tell
        ("PD-1 blockade",),
        3,
    )
    assert (second.topic_count, second.topics, second.reports) == (4, (), 0)
    assert third.topic_count == 3


def test_insights_name_overlaps_thin_streams_idle_streams_and_gaps() -> None:
    data = portfolio_insights([read_stream_line(line) for line in _lines()])
    assert schema_error(PORTFOLIO_INSIGHTS.schema, data) is None
    by_kind = {i["kind"]: i for i in data["insights"]}
    assert by_kind["overlap"]["stream_ids"] == [1, 2]
    assert by_kind["coverage"]["stream_ids"] == [1]
    assert by_kind["activity"]["stream_ids"] == [2]
    assert "gene editing" in by_kind["gap"]["detail"]


def test_suggestions_are_for_areas_not_yet_covered() -> None:
    data = stream_suggestions([read_stream_line(line) for line in _lines()])
    assert schema_error(STREAM_SUGGESTIONS.schema, data) is None
    names = [s["name"] for s in data["suggestions"]]
    assert names == ["Gene editing monitor", "Infectious disease monitor", "Neuroscience monitor"]
