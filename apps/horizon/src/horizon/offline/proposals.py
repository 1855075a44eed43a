"""Asks answered with a payload card, drafted from the page state without a model.

A payload is written only when the page offers it this turn; otherwise the
reply says where it can be drafted (with a `switch_tab` button on the edit page).
"""

from __future__ import annotations

from pagechat.tools import choices_block

from ..page_state import stream_of
from ..page_text import Label
from ..payloads import (
    PORTFOLIO_INSIGHTS,
    PRESENTATION_CATEGORIES,
    RETRIEVAL_PROPOSAL,
    SCHEMA_PROPOSAL,
    STREAM_SUGGESTIONS,
    STREAM_TEMPLATE,
    TOPIC_SUGGESTIONS,
    VALIDATION_FEEDBACK,
    VALIDATION_RESULTS,
)
from .asks import Ask
from .drafting import (
    AREAS,
    phrases,
    presentation_categories,
    retrieval_proposal,
    schema_proposal,
    stream_template,
    topic_suggestions,
)
from .portfolio import portfolio_insights, read_stream_line
from .portfolio import stream_suggestions as suggest_streams
from .situation import Situation, Step, actions, compose, suggestions
from .validation import validation_feedback, validation_results

_NEEDS_BASIS = "Give the stream a name and a purpose first: I draft from them."


def _switch_tab(s: Situation, tab: str, what: str) -> Step:
    """A button that opens `tab` and asks there again (`then`), so the draft follows."""
    button = {
        "label": f"Open the {tab} tab",
        "action": "switch_tab",
        "handler": "client",
        "data": {"tab_name": tab, "then": s.message},
    }
    return Step(
        compose(
            f"{what} belong on the {tab} tab; open it and I will draft them there.",
            actions([button]),
        )
    )


def _elsewhere(s: Situation, what: str, where: str) -> Step:
    buttons = []
    if s.page_name == "streams" and where == "the new stream page":
        buttons = [{"label": "New stream", "action": "create_stream", "handler": "client"}]
    return Step(compose(f"I draft {what} on {where}, not here.", actions(buttons)))


def schema(s: Situation, ask: Ask) -> Step:
    if not s.offers(SCHEMA_PROPOSAL):
        if s.page_name == "edit_stream":
            return _switch_tab(s, "semantic", "Topics, entities and the purpose")
        if s.offers(TOPIC_SUGGESTIONS):
            return topics(s, ask)
        return _elsewhere(s, "semantic spaces", "a stream's edit page")
    draft = stream_of(s.page)
    data = schema_proposal(draft)
    if data is None:
        if not (draft.name or draft.purpose):
            return Step(_NEEDS_BASIS)
        return Step("The semantic space already covers what the name and purpose say.")
    return Step(
        compose(
            "A proposal for the semantic space, drafted from the stream's name and purpose:",
            SCHEMA_PROPOSAL.line(data),
            suggestions([("Validate", "Validate this stream"), ("Queries", "Suggest queries")]),
        )
    )


def topics(s: Situation, ask: Ask) -> Step:
    if not s.offers(TOPIC_SUGGESTIONS):
        if s.page_name == "edit_stream":
            return schema(s, ask)
        return _elsewhere(s, "topics", "the new stream page")
    data = topic_suggestions(stream_of(s.page), ask.query)
    if data is None:
        return _pick_area(
            s,
            "Tell me what the stream is about (a name or a purpose), or pick an "
            "area for a template:",
        )
    return Step(
        compose(
            "Topics to consider, from your draft's name and purpose:",
            TOPIC_SUGGESTIONS.line(data),
            suggestions([("Check my draft", "Validate my draft")]),
        )
    )


def _pick_area(s: Situation, lead: str) -> Step:
    options = [
        {"label": a.name, "value": f"Suggest a template for {a.name.lower()}"} for a in AREAS[:4]
    ]
    return Step(compose(lead, choices_block("Which area?", options)))


def template(s: Situation, ask: Ask) -> Step:
    if not s.offers(STREAM_TEMPLATE):
        return _elsewhere(s, "stream templates", "the new stream page")
    draft = stream_of(s.page)
    area = ask.query or draft.name or " ".join(phrases(draft.purpose)[:2])
    if not area:
        return _pick_area(s, "A template for which research area?")
    return Step(
        compose(
            f"A template for “{area}”; accept it to fill the form, then adjust it:",
            STREAM_TEMPLATE.line(stream_template(area)),
            suggestions([("Check it", "Validate my draft")]),
        )
    )


def retrieval(s: Situation, ask: Ask) -> Step:
    if not s.offers(RETRIEVAL_PROPOSAL):
        if s.page_name == "edit_stream":
            return _switch_tab(s, "retrieval", "Search queries")
        return _elsewhere(s, "search queries", "the retrieval tab of a stream's edit page")
    data = retrieval_proposal(stream_of(s.page))
    if data is None:
        return Step(_NEEDS_BASIS)
    return Step(
        compose(
            "A PubMed query built from the stream's topics:",
            RETRIEVAL_PROPOSAL.line(data),
            suggestions([("Validate", "Validate this stream")]),
        )
    )


def categories(s: Situation, ask: Ask) -> Step:
    if not s.offers(PRESENTATION_CATEGORIES):
        if s.page_name == "edit_stream":
            return _switch_tab(s, "presentation", "Report categories")
        return _elsewhere(s, "report categories", "the presentation tab of a stream's edit page")
    return Step(
        compose(
            "Categories for this stream's reports, one per topic:",
            PRESENTATION_CATEGORIES.line(presentation_categories(stream_of(s.page))),
            suggestions([("Validate", "Validate this stream")]),
        )
    )


def validate(s: Situation, ask: Ask) -> Step:
    draft = stream_of(s.page)
    if s.offers(VALIDATION_RESULTS):
        data = validation_results(draft)
        return Step(
            compose(f"I checked the stream: {data['summary']}.", VALIDATION_RESULTS.line(data))
        )
    if s.offers(VALIDATION_FEEDBACK):
        data = validation_feedback(draft)
        verdict = "it is ready to create" if data["ready"] else "it is not ready yet"
        return Step(
            compose(
                f"I checked your draft: {verdict} ({data['summary']})",
                VALIDATION_FEEDBACK.line(data),
            )
        )
    return _elsewhere(s, "validation", "a stream's edit page or the new stream page")


def stream_ideas(s: Situation, ask: Ask) -> Step:
    if not s.offers(STREAM_SUGGESTIONS):
        return _elsewhere(s, "stream suggestions", "the streams page")
    streams = [read_stream_line(i) for i in s.page.items(Label.STREAMS)]
    return Step(
        compose(
            "Streams you might add, for areas your current streams do not cover:",
            STREAM_SUGGESTIONS.line(suggest_streams(streams)),
        )
    )


def portfolio(s: Situation, ask: Ask) -> Step:
    if not s.offers(PORTFOLIO_INSIGHTS):
        return _elsewhere(s, "portfolio insights", "the streams page")
    streams = [read_stream_line(i) for i in s.page.items(Label.STREAMS)]
    if not streams:
        button = {"label": "New stream", "action": "create_stream", "handler": "client"}
        return Step(
            compose("You have no streams yet, so there is nothing to analyse.", actions([button]))
        )
    data = portfolio_insights(streams)
    return Step(compose(f"Your portfolio: {data['summary']}", PORTFOLIO_INSIGHTS.line(data)))
