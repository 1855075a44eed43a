"""The answer when the user's message carries a paper's PDF.

Any page: the paper's summary (see `papers`). On a report, or an article opened
from one: how it relates to what the page shows and to the stream (see
`relating`), and, when the page offers `schema_proposal`, a card that adds the
paper to the stream as a topic, for the user to accept or reject. The stream's
current topics come from `get_stream_details`, called first, so the card keeps them.
"""

from __future__ import annotations

from ..page_text import Label
from ..payloads import SCHEMA_PROPOSAL
from ..tool_specs import GET_STREAM_DETAILS
from .papers import Paper, papers_in, summary
from .reading import fields_in
from .relating import page_texts, paper_proposal, shared_terms, stream_texts, stream_topics
from .replies import result_of
from .situation import Call, Situation, Step, compose

MAX_PAPERS = 3
"""PDFs of one message summarised; more are named as left out."""

_RELATED_PAGES = {"reports": "this report", "article": "this article"}


def has_paper(s: Situation) -> bool:
    """Whether the user's latest message carries a PDF."""
    return any(f.kind == "pdf" for f in s.files)


def paper_reply(s: Situation) -> Step:
    """Summarise the attached papers; on a report or article page, relate the first
    readable one and propose adding it to the stream."""
    papers = papers_in(s.files)
    summaries = [summary(p) for p in papers[:MAX_PAPERS]]
    if len(papers) > MAX_PAPERS:
        summaries.append(f"I read the first {MAX_PAPERS} of the {len(papers)} PDFs.")
    paper = next((p for p in papers if p.readable and p.title), None)
    where = _RELATED_PAGES.get(s.page_name)
    if paper is None or where is None:
        return Step(compose(*summaries, _elsewhere_note(s, paper)))
    stream_id = s.page.number(Label.STREAM_ID)
    if stream_id is None:
        relation = _relation(paper, where, shared_terms(paper, page_texts(s.page)))
        note = "This page belongs to no stream, so I cannot add the paper to one here."
        return Step(compose(*summaries, relation, note))
    details = result_of(
        s,
        Call(GET_STREAM_DETAILS.name, {"stream_id": stream_id}),
        saying=f"Reading “{paper.name}” and the topics of stream {stream_id}.",
        what=f"read stream {stream_id}'s topics",
    )
    if isinstance(details, Step) and details.calls:
        return details
    if isinstance(details, Step):
        relation = _relation(paper, where, shared_terms(paper, page_texts(s.page)))
        return Step(compose(*summaries, relation, f"{details.text} So I propose no change."))
    fields = fields_in(details.text)
    shared = shared_terms(paper, [*page_texts(s.page), *stream_texts(fields)])
    return Step(compose(*summaries, _relation(paper, where, shared), _proposal(s, paper, fields)))


def _relation(paper: Paper, where: str, shared: list[str]) -> str:
    """How the paper relates to the page, in shared words, or honestly that it does not."""
    if not shared:
        return (
            f"How it relates to {where}: it shares no subject terms with {where} or its "
            "stream, so it may lie outside what the stream follows."
        )
    words = ", ".join(f"“{w}”" for w in shared)
    return f"How it relates to {where}: it shares the terms {words} with {where} and its stream."


def _proposal(s: Situation, paper: Paper, fields: dict[str, str]) -> str:
    """The card adding the paper to the stream, or why there is none."""
    stream = fields.get("Name") or s.page.field(Label.STREAM_NAME) or "the stream"
    if not s.offers(SCHEMA_PROPOSAL):
        return f"I cannot propose adding it to “{stream}” on this page."
    current = stream_topics(fields.get("Topics", ""))
    shared = shared_terms(paper, [*page_texts(s.page), *stream_texts(fields)])
    data = paper_proposal(paper, current=current, stream=stream, shared=shared)
    if data is None:
        return f"“{stream}” already has this paper as a topic, so there is nothing to add."
    return compose(
        f"I propose adding it to “{stream}” as a topic; accept to save it, or reject it:",
        SCHEMA_PROPOSAL.line(data),
    )


def _elsewhere_note(s: Situation, paper: Paper | None) -> str:
    """Where relating and adding the paper is done, when not on this page."""
    if paper is None or s.page_name in _RELATED_PAGES:
        return ""
    return (
        "Open a report (or an article of one) and send the PDF there: I will say how it "
        "relates to the report and propose adding it to the stream."
    )
