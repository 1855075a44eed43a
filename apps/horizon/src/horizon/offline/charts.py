"""Chart asks: a report's articles per category and year, a stream's counts over time."""

from __future__ import annotations

from pagechat.tools import choices_block

from ..page_text import Label
from ..tool_specs import CHART_REPORT, CHART_STREAM, LIST_RESEARCH_STREAMS
from .asks import Ask
from .reading import first_lines, stream_ids_in
from .replies import result_of
from .situation import Call, Situation, Step, compose, suggestions


def chart_report(s: Situation, ask: Ask) -> Step:
    report_id = ask.ids[0] if ask.ids else s.page.number(Label.REPORT_ID)
    if report_id is None:
        return Step("Which report? Open one, or name it, like “chart report 12”.")
    call = Call(CHART_REPORT.name, {"report_id": report_id})
    done = result_of(
        s, call, saying=f"Charting report {report_id}.", what=f"chart report {report_id}"
    )
    if isinstance(done, Step):
        return done
    lines = first_lines(done.text, 3)[1:]
    return Step(
        compose(
            f"Report {report_id}'s articles per category and per publication year:",
            "\n".join(f"- {line}" for line in lines),
            suggestions([("Summarise it", "Summarise this report")]),
        )
    )


def chart_stream(s: Situation, ask: Ask) -> Step:
    stream_id = ask.ids[0] if ask.ids else s.page.number(Label.STREAM_ID)
    if stream_id is None:
        return _pick_stream(s)
    call = Call(CHART_STREAM.name, {"stream_id": stream_id})
    saying = f"Charting stream {stream_id} over time."
    done = result_of(s, call, saying=saying, what=f"chart stream {stream_id}")
    if isinstance(done, Step):
        return done
    return Step(compose(f"Stream {stream_id}, report by report:", first_lines(done.text, 1)[0]))


def _pick_stream(s: Situation) -> Step:
    listed = [i for i in (s.page.number(Label.STREAM_ID),) if i is not None]
    listing = s.last(LIST_RESEARCH_STREAMS.name)
    if not listed and listing is None and s.can_call(LIST_RESEARCH_STREAMS.name):
        return Step("Which stream? Let me list them.", (Call(LIST_RESEARCH_STREAMS.name, {}),))
    ids = listed or (stream_ids_in(listing.text) if listing and not listing.is_error else [])
    if not ids:
        return Step("Which stream? Name it by number, like “chart stream 3”.")
    options = [{"label": f"Stream {i}", "value": f"Chart stream {i} over time"} for i in ids[:4]]
    return Step(choices_block("Which stream should I chart?", options))
