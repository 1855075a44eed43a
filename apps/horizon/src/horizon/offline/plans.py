"""From the situation to the next step: which ask, and who answers it."""

from __future__ import annotations

from collections.abc import Callable

from . import charts, deletion, lookups, proposals
from .asks import Ask, AskKind, recognise
from .compare import compare
from .paper_replies import has_paper, paper_reply
from .replies import cannot_do, fallback, help_reply
from .situation import Situation, Step

Handler = Callable[[Situation, Ask], Step]

_HANDLERS: dict[AskKind, Handler] = {
    "help": lambda s, ask: help_reply(s),
    "compare": compare,
    "validate": proposals.validate,
    "search_reports": lookups.search_reports,
    "article": lookups.article,
    "summarise_report": lookups.summarise_report,
    "template": proposals.template,
    "topics": proposals.topics,
    "retrieval": proposals.retrieval,
    "categories": proposals.categories,
    "schema": proposals.schema,
    "portfolio": proposals.portfolio,
    "stream_suggestions": proposals.stream_ideas,
    "list_streams": lookups.list_streams,
    "stream_details": lookups.stream_details,
    "search_pubmed": lookups.search_pubmed,
    "chart_report": charts.chart_report,
    "chart_stream": charts.chart_stream,
    "delete_report": deletion.delete_report,
    "unsupported": lambda s, ask: cannot_do(s, ask.query or "do that"),
    "other": lambda s, ask: fallback(s),
}


def plan(s: Situation) -> Step:
    """The next step. A message carrying a paper's PDF is about the paper, whatever it
    says ("What does this paper add?"). Calls the model may not make (a tool not
    offered, one already made with the same input, or any after the round limit) are
    never planned: the situation is then replanned without calls, so every turn ends."""
    if has_paper(s):
        handler: Callable[[Situation], Step] = paper_reply
    else:
        ask = recognise(s.message, s.page_name, s.page.tab or "")
        handler = lambda situation: _HANDLERS[ask.kind](situation, ask)  # noqa: E731
    step = handler(s)
    if step.calls and not all(_allowed(s, c.name, c.input) for c in step.calls):
        step = handler(s.without_calls())
    return step


def _allowed(s: Situation, name: str, given: object) -> bool:
    repeated = any(d.name == name and d.input == given for d in s.done)
    return s.can_call(name) and not repeated
