"""A paper's PDF shared on a report or an article: what the model is told, and the card.

Both pages offer the same flow: summarise the paper, say how it relates to what the
page shows, and propose adding it to the stream as a topic with a `schema_proposal`
(the edit page's card). The payload names `apply_schema_proposal` as its accept
action, so the tray's Accept saves it to the page's stream with no code of the page's.
"""

from __future__ import annotations

from pagechat.pages import PayloadConfig

from ..actions import APPLY_SCHEMA_PROPOSAL
from ..payloads import SCHEMA_PROPOSAL
from ..tool_specs import GET_STREAM_DETAILS
from ._instructions import payload_instructions

PAPER_INSTRUCTIONS = (
    "When the user's message carries a paper's PDF: summarise it in a few sentences from "
    "its title and abstract; say how it relates to what this page shows and to the "
    "stream (the subjects they share, or plainly that they share none); then, when the "
    f"page has a stream, call {GET_STREAM_DETAILS.name} for its current topics and "
    "propose adding the paper to the stream as one new topic named after the paper, "
    "with SCHEMA_PROPOSAL. If the PDF has no readable text, say so and propose nothing."
)
"""The paper flow, for the instructions of the report and article pages."""

PAPER_PAYLOAD = PayloadConfig(
    type=SCHEMA_PROPOSAL.type,
    parse_marker=SCHEMA_PROPOSAL.marker,
    llm_instructions=payload_instructions(
        SCHEMA_PROPOSAL,
        when="the user shared a paper's PDF and the page has a stream: propose adding the "
        "paper to the stream as a topic.",
        fields="""\
- proposed_changes: only topics ([{"name", "description"}]): the stream's current topics,
  exactly as get_stream_details lists them, then one new topic named after the paper
  (its title, or its key subject) whose description says what the paper adds. The list
  replaces the current one, so every current topic must be repeated.
- confidence: "low", "medium" or "high": how close the paper is to the stream.
- reasoning: one or two sentences saying how the paper relates to the stream.""",
    ),
    schema=SCHEMA_PROPOSAL.schema,
    accept_action=APPLY_SCHEMA_PROPOSAL.action,
)
"""The card adding a shared paper to the page's stream."""
