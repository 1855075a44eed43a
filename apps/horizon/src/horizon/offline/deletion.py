"""Deleting a report: the one ask that changes something, so the `delete_report` tool asks
the user first (its approval card), and the answer says plainly what happened."""

from __future__ import annotations

import re

from ..page_text import Label
from ..tool_specs import DELETE_REPORT
from .asks import Ask
from .replies import cannot_do, result_of
from .situation import Call, Situation, Step

_OTHER_THING = re.compile(
    r"\b(streams?|articles?|papers?|conversations?|chats?|notes?|accounts?)\b", re.I
)
_REPORT = re.compile(r"\breports?\b", re.I)
_DENIED = "did not approve"


def delete_report(s: Situation, ask: Ask) -> Step:
    """Delete the report the message names, or the one on the page, once the user approves."""
    other = _OTHER_THING.search(ask.text)
    if other is not None and not _REPORT.search(ask.text):
        return cannot_do(s, f"delete {other.group(1).lower().rstrip('s')}s")
    report_id = ask.ids[0] if ask.ids else s.page.number(Label.REPORT_ID)
    if report_id is None:
        return Step(
            "Which report? Open it first, or name it (like “delete report 12”): "
            "I delete one report at a time, and only once you approve."
        )
    done = result_of(
        s,
        Call(DELETE_REPORT.name, {"report_id": report_id}),
        saying=f"Deleting report {report_id} needs your approval first.",
        what=f"delete report {report_id}",
    )
    if isinstance(done, Step):
        if done.calls or _DENIED not in done.text:
            return done
        return Step(f"I did not delete report {report_id}: you did not approve it.")
    return Step(f"Deleted report {report_id}, with its article list.")
