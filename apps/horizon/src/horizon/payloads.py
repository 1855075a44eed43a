"""The shapes of Horizon's payloads: one pydantic model per payload type.

Each model's JSON Schema (`payload_schema`) is the one source of truth: it validates
what the model writes (the page's `PayloadConfig`), what the web cards render, and
what a server action applies when the user accepts a card, so a payload the parser
accepted is one every consumer can use.

The web cards' TypeScript types are generated from the same models
(web/payload-types.json, `npm run gen:payload-types`: web/src/horizon/generated/payloads.gen.ts).

Model-written payloads come as `PayloadShape`s (type, marker, model, an example
that satisfies its schema). Two more shapes are for tools' `ToolResult.payload`
(`PUBMED_ARTICLE`, `PUBMED_SEARCH_RESULTS`), which carry no marker.

Conventions: topics, entities, queries and categories in a proposal are the
*complete* lists proposed (they replace the current ones when accepted), never
deltas. Extra keys are allowed except in `proposed_changes`, whose keys are
exactly the fields a schema proposal may change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeAlias, cast, get_args

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ALL_SHAPES",
    "CONFIDENCE_LEVELS",
    "ENTITY_TYPES",
    "INSIGHT_KINDS",
    "PAYLOAD_MODELS",
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
    "ArticleSummary",
    "Category",
    "Entity",
    "EntityType",
    "Insight",
    "Issue",
    "PayloadShape",
    "PortfolioInsights",
    "PresentationCategories",
    "ProposedChanges",
    "PubmedArticle",
    "PubmedSearchResults",
    "Query",
    "RetrievalProposal",
    "RetrievalSource",
    "SchemaProposal",
    "StreamSuggestion",
    "StreamSuggestions",
    "StreamTemplate",
    "Topic",
    "TopicSuggestions",
    "ValidationFeedback",
    "ValidationResults",
    "payload_schema",
]

Text = Annotated[str, Field(min_length=1)]
"""A string that may not be empty."""
Confidence = Literal["low", "medium", "high"]
EntityType = Literal[
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
]
"""What an entity of a stream's semantic space is; the API's schemas use it too."""
InsightKind = Literal["overlap", "gap", "coverage", "activity", "quality", "other"]
RetrievalSource = Literal["pubmed"]
"""Where a retrieval query runs; the API's schemas use it too."""

CONFIDENCE_LEVELS: tuple[str, ...] = get_args(Confidence)
ENTITY_TYPES: tuple[str, ...] = get_args(EntityType)
RETRIEVAL_SOURCES: tuple[str, ...] = get_args(RetrievalSource)
INSIGHT_KINDS: tuple[str, ...] = get_args(InsightKind)


class _Payload(BaseModel):
    # Extra keys are allowed (JSON Schema's default): the schema names no additionalProperties.
    model_config = ConfigDict(extra="ignore")


class Topic(_Payload):
    name: Text
    description: str = ""


class Entity(_Payload):
    name: Text
    type: EntityType


class Query(_Payload):
    source: RetrievalSource
    query: Text
    rationale: str = ""


class Category(_Payload):
    name: Text
    description: str = ""


class Issue(_Payload):
    field: str = ""
    message: Text


class ProposedChanges(BaseModel):
    """The fields a schema proposal changes: at least one, and no others."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    stream_name: Text = ""
    purpose: Text = ""
    topics: Annotated[list[Topic], Field(min_length=1)] = []
    entities: list[Entity] = []
    inclusion_notes: str = ""
    exclusion_notes: str = ""


class SchemaProposal(_Payload):
    proposed_changes: ProposedChanges
    confidence: Confidence
    reasoning: Text


class ValidationResults(_Payload):
    errors: list[Issue]
    warnings: list[Issue]
    suggestions: list[Issue]
    summary: str = ""


class ValidationFeedback(_Payload):
    ready: bool
    errors: list[Issue]
    warnings: list[Issue]
    suggestions: list[Issue]
    summary: str = ""


class RetrievalProposal(_Payload):
    queries: Annotated[list[Query], Field(min_length=1)]
    reasoning: Text
    confidence: Confidence = "medium"


class PresentationCategories(_Payload):
    categories: Annotated[list[Category], Field(min_length=1, max_length=12)]
    reasoning: Text


class StreamTemplate(_Payload):
    name: Text
    purpose: Text
    topics: Annotated[list[Topic], Field(min_length=1)]
    entities: list[Entity] = []
    inclusion_notes: str = ""
    exclusion_notes: str = ""
    queries: list[Query] = []
    categories: Annotated[list[Category], Field(max_length=12)] = []


class TopicSuggestions(_Payload):
    topics: Annotated[list[Topic], Field(min_length=1, max_length=10)]
    reasoning: str = ""


class StreamSuggestion(_Payload):
    name: Text
    purpose: Text
    topics: list[Text] = []
    rationale: str = ""


class StreamSuggestions(_Payload):
    suggestions: Annotated[list[StreamSuggestion], Field(min_length=1, max_length=5)]
    reasoning: str = ""


class Insight(_Payload):
    kind: InsightKind
    title: Text
    detail: Text
    stream_ids: list[int] = []


class PortfolioInsights(_Payload):
    summary: Text
    insights: Annotated[list[Insight], Field(min_length=1)]
    recommendations: list[Text] = []


class ArticleSummary(_Payload):
    """An article as a search lists it."""

    pmid: Text
    title: Text
    authors: list[str] = []
    journal: str = ""
    year: int | None = None
    doi: str | None = None


class PubmedArticle(ArticleSummary):
    """An article's card: what a search lists, and its abstract."""

    abstract: str = ""


class PubmedSearchResults(_Payload):
    query: str
    total: Annotated[int, Field(ge=0)] = 0
    articles: list[ArticleSummary]
    source: Literal["local", "pubmed"] = Field(
        default="local",
        description="Where it searched: the local article library, or PubMed online",
    )


_SCHEMA_KEYS_DROPPED = ("title", "default")


def _lean(schema: Any) -> Any:
    """`schema` without pydantic's titles and defaults: they validate nothing."""
    if isinstance(schema, list):
        return [_lean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    lean: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SCHEMA_KEYS_DROPPED:
            continue
        if key in ("properties", "$defs"):
            lean[key] = {name: _lean(sub) for name, sub in value.items()}
        else:
            lean[key] = _lean(value)
    return lean


def payload_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of a payload model: what the parser and the server actions validate."""
    return cast("dict[str, Any]", _lean(model.model_json_schema()))


PayloadModel: TypeAlias = type[BaseModel]
"""A payload's model class (an alias: `PayloadShape.type` shadows the builtin in its body)."""


@dataclass(frozen=True)
class PayloadShape:
    """A payload the model writes as `marker {json}`; `example` satisfies `model`'s schema."""

    type: str
    marker: str
    model: PayloadModel
    example: dict[str, Any]

    @property
    def schema(self) -> dict[str, Any]:
        """The model's JSON Schema (see `payload_schema`)."""
        return payload_schema(self.model)

    def line(self, data: Any) -> str:
        """`data` written the way the model is told to write it: marker, space, one-line JSON."""
        return f"{self.marker} {json.dumps(data, ensure_ascii=False)}"


SCHEMA_PROPOSAL = PayloadShape(
    type="schema_proposal",
    marker="SCHEMA_PROPOSAL:",
    model=SchemaProposal,
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

VALIDATION_RESULTS = PayloadShape(
    type="validation_results",
    marker="VALIDATION_RESULTS:",
    model=ValidationResults,
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
    model=ValidationFeedback,
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
    model=RetrievalProposal,
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
    model=PresentationCategories,
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
    model=StreamTemplate,
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
    model=TopicSuggestions,
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
    model=StreamSuggestions,
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
    model=PortfolioInsights,
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

PUBMED_ARTICLE_SCHEMA: dict[str, Any] = payload_schema(PubmedArticle)

PUBMED_SEARCH_RESULTS = "pubmed_search_results"
"""Type of a tool's search results payload (`ToolResult.payload`)."""

PUBMED_SEARCH_RESULTS_SCHEMA: dict[str, Any] = payload_schema(PubmedSearchResults)

PAYLOAD_MODELS: dict[str, type[BaseModel]] = {
    **{shape.type: shape.model for shape in ALL_SHAPES},
    PUBMED_ARTICLE: PubmedArticle,
    PUBMED_SEARCH_RESULTS: PubmedSearchResults,
}
"""Every payload type and its model (web/payload-types.json generates their TypeScript)."""
