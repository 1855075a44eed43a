"""Comparing two streams or two articles: fetch each with a tool, then one table."""

from __future__ import annotations

from ..page_text import Label
from ..tool_specs import GET_STREAM_DETAILS, LIST_RESEARCH_STREAMS
from .asks import Ask
from .lookups import article_tool, listed_pmids
from .reading import fields_in, first_line, first_lines, stream_ids_in
from .replies import cannot
from .situation import Call, Done, Situation, Step, compose, suggestions

_ROWS = 8
_CELL = 80
_LEFT_OUT = frozenset({"Abstract", "Error", "PMID"})


def compare(s: Situation, ask: Ask) -> Step:
    pmids = list(ask.pmids)
    page_pmid = s.page.field(Label.ARTICLE_PMID) or s.page.field(Label.SELECTED_PMID)
    if len(pmids) == 1 and page_pmid and page_pmid != pmids[0]:
        pmids.insert(0, page_pmid)
    if len(pmids) >= 2:
        return _compare(s, article_tool(s), "pmid", pmids[:4], "PMID")
    if "stream" in ask.text.casefold():
        return _compare_streams(s, ask)
    listed = listed_pmids(s)
    if len(listed) >= 2:
        return _compare(s, article_tool(s), "pmid", listed[:2], "PMID")
    return Step(
        compose(
            "What should I compare? Name two articles (“compare PMID 1 and PMID 2”) or two "
            "streams (“compare streams 1 and 2”).",
            suggestions([("Compare my streams", "Compare my streams")]),
        )
    )


def _compare_streams(s: Situation, ask: Ask) -> Step:
    ids = list(ask.ids)
    if len(ids) < 2:
        listing = s.last(LIST_RESEARCH_STREAMS.name)
        if listing is None:
            if not s.can_call(LIST_RESEARCH_STREAMS.name):
                return Step("Which two streams? For example: “compare streams 1 and 2”.")
            call = Call(LIST_RESEARCH_STREAMS.name, {})
            return Step("Finding your streams to compare.", (call,))
        if not listing.is_error:
            ids = list(dict.fromkeys([*ids, *stream_ids_in(listing.text)]))
    if len(ids) < 2:
        return Step("I need two streams to compare, and found fewer.")
    return _compare(s, GET_STREAM_DETAILS.name, "stream_id", ids[:2], "Stream")


def _compare(s: Situation, tool: str, key: str, values: list[str] | list[int], label: str) -> Step:
    wanted = list(values)
    results = {d.input.get(key): d for d in s.results(tool) if d.input.get(key) in wanted}
    missing = [v for v in wanted if v not in results]
    if missing and not results:
        if not s.can_call(tool):
            return cannot(s, tool, "compare them")
        names = " and ".join(f"{label} {v}" for v in wanted)
        return Step(
            f"Fetching {names} to compare them.", tuple(Call(tool, {key: v}) for v in wanted)
        )
    columns = [(f"{label} {v}", results.get(v)) for v in wanted]
    errors = [f"{name}: {_error(done)}" for name, done in columns if done is None or done.is_error]
    note = f"Not available — {'; '.join(errors)}." if errors else ""
    chips = [(f"More on {name}", f"Tell me more about {name}") for name, _ in columns[:2]]
    return Step(
        compose(
            "Side by side:",
            _table(columns),
            note,
            suggestions(chips if label == "PMID" else []),
        )
    )


def _error(done: Done | None) -> str:
    return "not fetched" if done is None else first_line(done.text, "the tool failed")


def _table(columns: list[tuple[str, Done | None]]) -> str:
    details = [
        fields_in(d.text) if d is not None and not d.is_error else {} for _name, d in columns
    ]
    rows = list(dict.fromkeys(k for fields in details for k in fields if _row(k)))
    if not rows:
        rows = ["Summary"]
        details = [
            {"Summary": " ".join(first_lines(d.text, 2))} if d and not d.is_error else {}
            for _n, d in columns
        ]
    head = "| | " + " | ".join(name for name, _ in columns) + " |"
    rule = "|---" * (len(columns) + 1) + "|"
    body = [
        f"| **{row}** | " + " | ".join(_cell(fields.get(row, "—")) for fields in details) + " |"
        for row in rows[:_ROWS]
    ]
    return "\n".join([head, rule, *body])


def _row(label: str) -> bool:
    # All-caps labels are an abstract's sections (BACKGROUND:, METHODS:), not facts.
    return label not in _LEFT_OUT and not (label.isupper() and len(label) > 3)


def _cell(value: str) -> str:
    text = value.replace("|", "\\|")
    return text if len(text) <= _CELL else text[: _CELL - 1] + "…"
