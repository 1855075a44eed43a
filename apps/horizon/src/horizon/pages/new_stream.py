"""The new-stream page: a form for a research stream that does not exist yet.

Context the web page sends (every key optional; odd values read as empty)::

    current_page: "new_stream"
    stream: {                                   # the draft as typed so far
        name, purpose,
        semantic_space: {topics: [{name, description}], entities: [{name, type}],
                         inclusion_notes, exclusion_notes},
        retrieval_config: {queries: [{source: "pubmed", query}]},
        presentation_config: {categories: [{name, description}]},
    }

The layers' keys may also sit directly on `stream`; `draft` is read when
`stream` is absent. Payloads: `stream_template` (fills the whole form),
`topic_suggestions` (topics to add) and `validation_feedback`. Server action:
`create_stream_from_template` (`data`: a stream template) creates the stream.
"""

from __future__ import annotations

from typing import Any

from pagechat.pages import PayloadConfig, first, register_page

from ..actions import CREATE_STREAM_FROM_TEMPLATE
from ..page_state import read_stream, write_stream
from ..page_text import ContextText
from ..payloads import ENTITY_TYPES, STREAM_TEMPLATE, TOPIC_SUGGESTIONS, VALIDATION_FEEDBACK
from ._instructions import payload_instructions

__all__ = ["PAGE", "build_context"]

_FIELDS = "name, purpose, topics, entities, inclusion_notes, exclusion_notes, queries, categories"

_PAYLOADS = (
    PayloadConfig(
        type=STREAM_TEMPLATE.type,
        parse_marker=STREAM_TEMPLATE.marker,
        llm_instructions=payload_instructions(
            STREAM_TEMPLATE,
            when="the user asks for a template, an example, or a whole stream drafted for a "
            "research area.",
            fields=f"""\
- name, purpose: required; purpose is one or two sentences on what to follow and why.
- topics: required, 3 to 6 of [{{"name", "description"}}].
- entities: [{{"name", "type"}}], type one of {", ".join(ENTITY_TYPES)}.
- inclusion_notes, exclusion_notes: optional text.
- queries: optional [{{"source": "pubmed", "query"}}] in PubMed boolean syntax.
- categories: optional [{{"name", "description"}}] to group report articles.""",
        ),
        schema=STREAM_TEMPLATE.schema,
    ),
    PayloadConfig(
        type=TOPIC_SUGGESTIONS.type,
        parse_marker=TOPIC_SUGGESTIONS.marker,
        llm_instructions=payload_instructions(
            TOPIC_SUGGESTIONS,
            when="the user asks which topics to add, or for more or better topics.",
            fields="""\
- topics: 1 to 10 new topics, [{"name", "description"}]; leave out those the draft has.
- reasoning: optional, one sentence.""",
        ),
        schema=TOPIC_SUGGESTIONS.schema,
    ),
    PayloadConfig(
        type=VALIDATION_FEEDBACK.type,
        parse_marker=VALIDATION_FEEDBACK.marker,
        llm_instructions=payload_instructions(
            VALIDATION_FEEDBACK,
            when="the user asks whether the draft is complete, good enough, or ready to create.",
            fields=f"""\
- ready: true when nothing in errors blocks creating the stream.
- errors (must fix), warnings (should fix), suggestions (could improve): lists of
  {{"field", "message"}}; field is one of {_FIELDS}. Use [] for none.
- summary: optional, one sentence.""",
        ),
        schema=VALIDATION_FEEDBACK.schema,
    ),
)

_INSTRUCTIONS = (
    "The user is creating a new research stream: a standing literature search that produces "
    "periodic reports. Help them draft it. A template or topic suggestion fills the form only "
    "when the user accepts its card; the stream is created when they submit the form."
)


def build_context(context: dict[str, Any]) -> str:
    """The draft so far, each list with its count."""
    text = ContextText("new_stream")
    write_stream(text, read_stream(first(context, "stream", "draft")))
    return text.render()


PAGE = register_page(
    "new_stream",
    payloads=_PAYLOADS,
    context_builder=build_context,
    server_actions=[CREATE_STREAM_FROM_TEMPLATE],
    instructions=_INSTRUCTIONS,
)
