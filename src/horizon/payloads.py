"""The shapes of Horizon's payloads: one JSON Schema per payload type.

The same schema validates what the model writes (the page's `PayloadConfig`), what
the web cards render, and what a server action applies when the user accepts a
card, so a payload the parser accepted is one every consumer can use.

Model-written payloads come as `PayloadShape`s (type, marker, schema, an example
that satisfies the schema). Two more shapes are for tools' `ToolResult.payload`
(`PUBMED_ARTICLE`, `PUBMED_SEARCH_RESULTS`), which carry no marker.

Conventions: topics, entities, queries and categories in a proposal are the
*complete* lists proposed (they replace the current ones when accepted), never
deltas. Extra keys are allowed except in `proposed_changes`, whose keys are
exactly the fields a schema proposal may change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ALL_SHAPES",
    "CONFIDENCE_LEVELS",
    "ENTITY_TYPES",
    "INSIGHT_KINDS",
    "PORTFOLIO_INSIGHTS",
    "PRESENTATION_CATEGORIES",
    "PUBMED_ARTICLE",
    "PUBMED_ARTICLE_SCHEMA",
    "PUBMED_SEARCH_RESULTS",
    "PUBMED_SEARCH_RESULTS_SCHEMA",
    "RETRIEVAL_PROPOSAL",
    "RETRIEVAL_SOURCES",
    "SCHEMA_PROPOSAL",
    "STREAM_SUGGESTIONS",
    "STREAM_TEMPLATE",
    "TOPIC_SUGGESTIONS",
    "VALIDATION_FEEDBACK",
    "VALIDATION_RESULTS",
    "PayloadShape",
]

CONFIDENCE_LEVELS = ("low", "medium", "high")
ENTITY_TYPES = (
    "disease",
    "drug",
    "gene",
    "protein",
    "pathway",
    "intervention",
    "biomarker",
    "organism",
    "method",
    "population",
    "other",
)
RETRIEVAL_SOURCES = ("pubmed",)
INSIGHT_KINDS = ("overlap", "gap", "coverage", "activity", "quality", "other")


@dataclass(frozen=True)
class PayloadShape:
    """A payload the model writes as `marker {json}`; `example` satisfies `schema`."""

    type: str
    marker: str
    schema: dict[str, Any]
    example: dict[str, Any]

    def line(self, data: Any) -> str:
        """`data` written the way the model is told to write it: marker, space, one-line JSON."""
        return f"{self.marker} {json.dumps(data, ensure_ascii=False)}"


_TEXT: dict[str, Any] = {"type": "string", "minLength": 1}
_NOTE: dict[str, Any] = {"type": "string"}

_TOPIC: dict[str, Any] = {
    "type": "object",
    "properties": {"name": _TEXT, "description": _NOTE},
    "required": ["name"],
}
_ENTITY: dict[str, Any] = {
    "type": "object",
    "properties": {"name": _TEXT, "type": {"enum": list(ENTITY_TYPES)}},
    "required": ["name", "type"],
}
_QUERY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "source": {"enum": list(RETRIEVAL_SOURCES)},
        "query": _TEXT,
        "rationale": _NOTE,
    },
    "required": ["source", "query"],
}
_CATEGORY: dict[str, Any] = {
    "type": "object",
    "properties": {"name": _TEXT, "description": _NOTE},
    "required": ["name"],
}
_ISSUE: dict[str, Any] = {
    "type": "object",
    "properties": {"field": _NOTE, "message": _TEXT},
    "required": ["message"],
}
_CONFIDENCE: dict[str, Any] = {"enum": list(CONFIDENCE_LEVELS)}


def _array(items: dict[str, Any], *, min_items: int = 0, max_items: int | None = None) -> Any:
    schema: dict[str, Any] = {"type": "array", "items": items}
    if min_items:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    return schema


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


SCHEMA_PROPOSAL = PayloadShape(
    type="schema_proposal",
    marker="SCHEMA_PROPOSAL:",
    schema=_object(
        {
            "proposed_changes": {
                "type": "object",
                "properties": {
                    "stream_name": _TEXT,
                    "purpose": _TEXT,
                    "topics": _array(_TOPIC, min_items=1),
                    "entities": _array(_ENTITY),
                    "inclusion_notes": _NOTE,
                    "exclusion_notes": _NOTE,
                },
                "additionalProperties": False,
                "minProperties": 1,
            },
            "confidence": _CONFIDENCE,
            "reasoning": _TEXT,
        },
        ["proposed_changes", "confidence", "reasoning"],
    ),
    example={
        "proposed_changes": {
            "purpose": "Track clinical and translational advances in CAR-T cell therapy "
            "for solid tumours.",
            "topics": [
                {"name": "CAR-T cell therapy", "description": "Engineered T cell therapies."},
                {"name": "Solid tumours", "description": "Trials outside blood cancers."},
            ],
            "entities": [
                {"name": "CAR-T", "type": "intervention"},
                {"name": "Glioblastoma", "type": "disease"},
            ],
            "exclusion_notes": "Exclude haematological malignancies.",
        },
        "confidence": "medium",
        "reasoning": "The purpose names solid tumours, so blood cancers are excluded.",
    },
)

_ISSUES = {"errors": _array(_ISSUE), "warnings": _array(_ISSUE), "suggestions": _array(_ISSUE)}

VALIDATION_RESULTS = PayloadShape(
    type="validation_results",
    marker="VALIDATION_RESULTS:",
    schema=_object({**_ISSUES, "summary": _NOTE}, ["errors", "warnings", "suggestions"]),
    example={
        "errors": [{"field": "topics", "message": "The stream has no topics."}],
        "warnings": [{"field": "purpose", "message": "The purpose is one word long."}],
        "suggestions": [{"field": "entities", "message": "Add the drugs you follow."}],
        "summary": "1 error, 1 warning.",
    },
)

VALIDATION_FEEDBACK = PayloadShape(
    type="validation_feedback",
    marker="VALIDATION_FEEDBACK:",
    schema=_object(
        {"ready": {"type": "boolean"}, **_ISSUES, "summary": _NOTE},
        ["ready", "errors", "warnings", "suggestions"],
    ),
    example={
        "ready": False,
        "errors": [{"field": "name", "message": "Give the stream a name."}],
        "warnings": [],
        "suggestions": [{"field": "topics", "message": "Add two or three topics."}],
    },
)

RETRIEVAL_PROPOSAL = PayloadShape(
    type="retrieval_proposal",
    marker="RETRIEVAL_PROPOSAL:",
    schema=_object(
        {"queries": _array(_QUERY, min_items=1), "reasoning": _TEXT, "confidence": _CONFIDENCE},
        ["queries", "reasoning"],
    ),
    example={
        "queries": [
            {
                "source": "pubmed",
                "query": '("CAR-T"[Title/Abstract] OR "chimeric antigen receptor"'
                '[Title/Abstract]) AND ("solid tumour"[Title/Abstract] OR '
                '"glioblastoma"[Title/Abstract])',
                "rationale": "Both the therapy and the tumour type must be mentioned.",
            }
        ],
        "reasoning": "One query per source, combining the therapy with the tumour types.",
    },
)

PRESENTATION_CATEGORIES = PayloadShape(
    type="presentation_categories",
    marker="PRESENTATION_CATEGORIES:",
    schema=_object(
        {"categories": _array(_CATEGORY, min_items=1, max_items=12), "reasoning": _TEXT},
        ["categories", "reasoning"],
    ),
    example={
        "categories": [
            {"name": "Clinical trials", "description": "Interventional studies in patients."},
            {"name": "Mechanisms", "description": "Laboratory and animal studies."},
            {"name": "Reviews", "description": "Reviews, meta-analyses and guidelines."},
        ],
        "reasoning": "Readers triage trials first; mechanisms and reviews follow.",
    },
)

STREAM_TEMPLATE = PayloadShape(
    type="stream_template",
    marker="STREAM_TEMPLATE:",
    schema=_object(
        {
            "name": _TEXT,
            "purpose": _TEXT,
            "topics": _array(_TOPIC, min_items=1),
            "entities": _array(_ENTITY),
            "inclusion_notes": _NOTE,
            "exclusion_notes": _NOTE,
            "queries": _array(_QUERY),
            "categories": _array(_CATEGORY, max_items=12),
        },
        ["name", "purpose", "topics"],
    ),
    example={
        "name": "Heart failure therapies",
        "purpose": "Follow new drug and device therapies for heart failure.",
        "topics": [
            {"name": "SGLT2 inhibitors", "description": "Trials in reduced ejection fraction."},
            {"name": "Device therapy", "description": "Implantable devices and ablation."},
        ],
        "entities": [{"name": "Heart failure", "type": "disease"}],
        "queries": [{"source": "pubmed", "query": '"heart failure"[Title/Abstract]'}],
        "categories": [{"name": "Trials", "description": "Randomised trials."}],
    },
)

TOPIC_SUGGESTIONS = PayloadShape(
    type="topic_suggestions",
    marker="TOPIC_SUGGESTIONS:",
    schema=_object(
        {"topics": _array(_TOPIC, min_items=1, max_items=10), "reasoning": _NOTE},
        ["topics"],
    ),
    example={
        "topics": [
            {"name": "Base editing", "description": "Single-base changes without breaks."},
            {"name": "Off-target effects", "description": "Safety of editing tools."},
        ],
        "reasoning": "The purpose mentions editing safety.",
    },
)

STREAM_SUGGESTIONS = PayloadShape(
    type="stream_suggestions",
    marker="STREAM_SUGGESTIONS:",
    schema=_object(
        {
            "suggestions": _array(
                _object(
                    {
                        "name": _TEXT,
                        "purpose": _TEXT,
                        "topics": _array(_TEXT),
                        "rationale": _NOTE,
                    },
                    ["name", "purpose"],
                ),
                min_items=1,
                max_items=5,
            ),
            "reasoning": _NOTE,
        },
        ["suggestions"],
    ),
    example={
        "suggestions": [
            {
                "name": "Cardio-oncology",
                "purpose": "Track cardiac side effects of cancer therapies.",
                "topics": ["Cardiotoxicity", "Immune checkpoint myocarditis"],
                "rationale": "It bridges your oncology and cardiology streams.",
            }
        ]
    },
)

PORTFOLIO_INSIGHTS = PayloadShape(
    type="portfolio_insights",
    marker="PORTFOLIO_INSIGHTS:",
    schema=_object(
        {
            "summary": _TEXT,
            "insights": _array(
                _object(
                    {
                        "kind": {"enum": list(INSIGHT_KINDS)},
                        "title": _TEXT,
                        "detail": _TEXT,
                        "stream_ids": _array({"type": "integer"}),
                    },
                    ["kind", "title", "detail"],
                ),
                min_items=1,
            ),
            "recommendations": _array(_TEXT),
        },
        ["summary", "insights"],
    ),
    example={
        "summary": "3 streams; two overlap on immunotherapy.",
        "insights": [
            {
                "kind": "overlap",
                "title": "Immunotherapy is followed twice",
                "detail": "Streams 1 and 4 both have an immunotherapy topic.",
                "stream_ids": [1, 4],
            }
        ],
        "recommendations": ["Merge the immunotherapy topics into one stream."],
    },
)

ALL_SHAPES: tuple[PayloadShape, ...] = (
    SCHEMA_PROPOSAL,
    VALIDATION_RESULTS,
    VALIDATION_FEEDBACK,
    RETRIEVAL_PROPOSAL,
    PRESENTATION_CATEGORIES,
    STREAM_TEMPLATE,
    TOPIC_SUGGESTIONS,
    STREAM_SUGGESTIONS,
    PORTFOLIO_INSIGHTS,
)
"""Every model-written payload shape."""

PUBMED_ARTICLE = "pubmed_article"
"""Type of a tool's article card payload (`ToolResult.payload`)."""

_ARTICLE_PROPERTIES: dict[str, Any] = {
    "pmid": _TEXT,
    "title": _TEXT,
    "authors": _array({"type": "string"}),
    "journal": _NOTE,
    "year": {"type": ["integer", "null"]},
    "doi": {"type": ["string", "null"]},
}

PUBMED_ARTICLE_SCHEMA: dict[str, Any] = _object(
    {**_ARTICLE_PROPERTIES, "abstract": _NOTE}, ["pmid", "title"]
)

PUBMED_SEARCH_RESULTS = "pubmed_search_results"
"""Type of a tool's search results payload (`ToolResult.payload`)."""

PUBMED_SEARCH_RESULTS_SCHEMA: dict[str, Any] = _object(
    {
        "query": _NOTE,
        "total": {"type": "integer", "minimum": 0},
        "articles": _array(_object(_ARTICLE_PROPERTIES, ["pmid", "title"])),
        "source": {
            "enum": ["local", "pubmed"],
            "description": "Where it searched: the local article library, or PubMed online",
        },
    },
    ["query", "articles"],
)
