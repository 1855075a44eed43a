"""The edit-stream page: one research stream's three layers, one tab each.

Context the web page sends (every key optional; odd values read as empty)::

    current_page: "edit_stream"
    active_tab: "semantic" | "retrieval" | "presentation"
    stream_id: 12
    stream: {                                   # the form as it is now, unsaved edits included
        name, purpose,
        semantic_space: {topics: [{name, description}], entities: [{name, type}],
                         inclusion_notes, exclusion_notes},
        retrieval_config: {queries: [{source: "pubmed", query}]},
        presentation_config: {categories: [{name, description}]},
    }
    has_unsaved_changes: true

The layers' keys may also sit directly on `stream`; `current_schema` is read
when `stream` is absent. Payloads: `schema_proposal` (semantic tab),
`retrieval_proposal` (retrieval tab), `presentation_categories` (presentation
tab) and `validation_results` (every tab). Client action: `switch_tab`
(`data: {tab_name}`). Server actions save an accepted proposal to the stream
(`stream_id` from the data or the context): `apply_schema_proposal`,
`apply_retrieval_proposal`, `apply_presentation_categories`.
"""

from __future__ import annotations

from typing import Any

from pagechat.pages import ClientAction, PayloadConfig, TabConfig, as_id, first, register_page

from ..actions import (
    APPLY_PRESENTATION_CATEGORIES,
    APPLY_RETRIEVAL_PROPOSAL,
    APPLY_SCHEMA_PROPOSAL,
)
from ..page_state import read_stream, write_stream
from ..page_text import ContextText, Label
from ..payloads import (
    ENTITY_TYPES,
    PRESENTATION_CATEGORIES,
    RETRIEVAL_PROPOSAL,
    SCHEMA_PROPOSAL,
    VALIDATION_RESULTS,
)
from ._instructions import payload_instructions

__all__ = ["ACCEPT_EFFECT", "PAGE", "SWITCH_TAB", "TABS", "build_context"]

TABS = ("semantic", "retrieval", "presentation")

SWITCH_TAB = ClientAction(
    "switch_tab",
    "Open another tab of this page: semantic, retrieval or presentation; `then`: the user's "
    "request, asked again once the tab is open.",
    ("tab_name", "then"),
)

_FIELDS = "name, purpose, topics, entities, inclusion_notes, exclusion_notes, queries, categories"

_PAYLOADS = (
    PayloadConfig(
        type=SCHEMA_PROPOSAL.type,
        parse_marker=SCHEMA_PROPOSAL.marker,
        llm_instructions=payload_instructions(
            SCHEMA_PROPOSAL,
            when="the user asks to write, improve or change the stream's semantic space: its "
            "name, purpose, topics, entities, or inclusion and exclusion notes.",
            fields=f"""\
- proposed_changes: only the fields you change, from stream_name, purpose, topics
  ([{{"name", "description"}}]), entities ([{{"name", "type"}}], type one of
  {", ".join(ENTITY_TYPES)}), inclusion_notes, exclusion_notes. topics and entities are
  the complete new lists (they replace the current ones): repeat the current items to keep.
- confidence: "low", "medium" or "high".
- reasoning: one or two sentences saying why.""",
        ),
        schema=SCHEMA_PROPOSAL.schema,
        relevant_tabs=("semantic",),
    ),
    PayloadConfig(
        type=VALIDATION_RESULTS.type,
        parse_marker=VALIDATION_RESULTS.marker,
        llm_instructions=payload_instructions(
            VALIDATION_RESULTS,
            when="the user asks you to check, review or validate the stream (any layer).",
            fields=f"""\
- errors (must fix), warnings (should fix), suggestions (could improve): lists of
  {{"field", "message"}}; field is one of {_FIELDS}. Use [] for none.
- summary: optional, one sentence.""",
        ),
        schema=VALIDATION_RESULTS.schema,
    ),
    PayloadConfig(
        type=RETRIEVAL_PROPOSAL.type,
        parse_marker=RETRIEVAL_PROPOSAL.marker,
        llm_instructions=payload_instructions(
            RETRIEVAL_PROPOSAL,
            when="the user asks for search queries, or to widen, narrow or fix retrieval.",
            fields="""\
- queries: the complete list, replacing the current one: [{"source": "pubmed", "query",
  "rationale"}]. Write PubMed boolean syntax with field tags, built from the stream's
  topics and entities, honouring its exclusion notes.
- reasoning: one or two sentences; confidence: optional, "low", "medium" or "high".""",
        ),
        schema=RETRIEVAL_PROPOSAL.schema,
        relevant_tabs=("retrieval",),
    ),
    PayloadConfig(
        type=PRESENTATION_CATEGORIES.type,
        parse_marker=PRESENTATION_CATEGORIES.marker,
        llm_instructions=payload_instructions(
            PRESENTATION_CATEGORIES,
            when="the user asks how to group or categorise the articles of the stream's reports.",
            fields="""\
- categories: the complete list (3 to 8 is best, at most 12), replacing the current one:
  [{"name", "description"}]; the description says which articles belong there.
- reasoning: one or two sentences.""",
        ),
        schema=PRESENTATION_CATEGORIES.schema,
        relevant_tabs=("presentation",),
    ),
)

_TABS = (
    TabConfig(
        "semantic",
        instructions="The SEMANTIC tab (layer 1) says what the stream is about: name, purpose, "
        "topics, entities, and inclusion and exclusion notes. It is the ground truth the "
        "other two layers are derived from. Propose changes with SCHEMA_PROPOSAL.",
    ),
    TabConfig(
        "retrieval",
        instructions="The RETRIEVAL tab (layer 2) says how articles are found: one boolean "
        "query per source (PubMed today), derived from the semantic layer. Propose queries "
        "with RETRIEVAL_PROPOSAL.",
    ),
    TabConfig(
        "presentation",
        instructions="The PRESENTATION tab (layer 3) says how a report groups its articles: "
        "a few categories, each described well enough to assign an article to it. Propose "
        "categories with PRESENTATION_CATEGORIES.",
    ),
)

ACCEPT_EFFECT = (
    "A proposal changes nothing until the user accepts its card. Accepting applies it at "
    "once: the proposed fields change in the form and are saved to the stream (the page "
    "offers Undo); the user's other unsaved edits stay unsaved until they press Save."
)
"""What Accept on this page's proposal cards does, as the web page does it
(EditStreamPage: the form changes, then the card's apply action saves to the stream)."""

_INSTRUCTIONS = (
    "The user is editing one research stream, a standing literature search that produces "
    "periodic reports. Its three layers are edited on three tabs: semantic (what it is "
    "about), retrieval (how articles are found) and presentation (how reports group them). "
    f"{ACCEPT_EFFECT} When a request belongs on another tab, say so and offer the "
    "switch_tab action."
)


def build_context(context: dict[str, Any]) -> str:
    """The active tab and the whole stream, each list with its count."""
    tab = context.get("active_tab")
    text = ContextText("edit_stream", tab if isinstance(tab, str) else "")
    text.field(Label.STREAM_ID, as_id(context.get("stream_id")))
    write_stream(text, read_stream(first(context, "stream", "current_schema")))
    unsaved = context.get("has_unsaved_changes")
    if isinstance(unsaved, bool):
        text.field(Label.UNSAVED, unsaved)
    return text.render()


PAGE = register_page(
    "edit_stream",
    payloads=_PAYLOADS,
    context_builder=build_context,
    client_actions=[SWITCH_TAB],
    server_actions=[APPLY_SCHEMA_PROPOSAL, APPLY_RETRIEVAL_PROPOSAL, APPLY_PRESENTATION_CATEGORIES],
    tabs=_TABS,
    instructions=_INSTRUCTIONS,
)
