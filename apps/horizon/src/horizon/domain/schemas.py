"""Horizon's data as it crosses the API: Base / Create / Update / Public schema families.

The stream layers use the shapes of `horizon.payloads`, so a proposal the model
wrote and the user accepted is exactly what a stream stores.
"""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, Field

from ..payloads import EntityType, RetrievalSource

__all__ = [
    "ArticleDetail",
    "ArticleMatchPublic",
    "ArticlePublic",
    "ArticleSearchResults",
    "Category",
    "Entity",
    "PresentationConfig",
    "ReportArticlePublic",
    "ReportArticleUpdate",
    "ReportDetail",
    "ReportEntry",
    "ReportPublic",
    "ReportsPublic",
    "RetrievalConfig",
    "RetrievalQuery",
    "SemanticSpace",
    "StreamBase",
    "StreamCreate",
    "StreamPublic",
    "StreamUpdate",
    "StreamsPublic",
    "Topic",
]

_Name = Field(min_length=1, max_length=200)
_Note = Field(default="", max_length=4000)


class _Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Topic(_Schema):
    name: str = _Name
    description: str = Field(default="", max_length=1000)


class Entity(_Schema):
    name: str = _Name
    type: EntityType


class RetrievalQuery(_Schema):
    source: RetrievalSource = "pubmed"
    query: str = Field(min_length=1, max_length=4000)
    rationale: str = Field(default="", max_length=1000)


class Category(_Schema):
    name: str = _Name
    description: str = Field(default="", max_length=1000)


class SemanticSpace(_Schema):
    topics: list[Topic] = Field(default_factory=list, max_length=100)
    entities: list[Entity] = Field(default_factory=list, max_length=200)
    inclusion_notes: str = _Note
    exclusion_notes: str = _Note


class RetrievalConfig(_Schema):
    queries: list[RetrievalQuery] = Field(default_factory=list, max_length=20)


class PresentationConfig(_Schema):
    categories: list[Category] = Field(default_factory=list, max_length=12)


class StreamBase(_Schema):
    name: str = _Name
    purpose: str = Field(default="", max_length=2000)
    semantic_space: SemanticSpace = Field(default_factory=SemanticSpace)
    retrieval_config: RetrievalConfig = Field(default_factory=RetrievalConfig)
    presentation_config: PresentationConfig = Field(default_factory=PresentationConfig)


class StreamCreate(StreamBase):
    pass


class StreamUpdate(_Schema):
    """Only the fields sent change; a layer sent replaces the stored one."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    purpose: str | None = Field(default=None, max_length=2000)
    semantic_space: SemanticSpace | None = None
    retrieval_config: RetrievalConfig | None = None
    presentation_config: PresentationConfig | None = None


class StreamPublic(StreamBase):
    id: int
    created_at: datetime
    updated_at: datetime
    report_count: int = 0
    latest_report_date: date | None = None


class StreamsPublic(BaseModel):
    data: list[StreamPublic]
    count: int


class ReportPublic(BaseModel):
    id: int
    stream_id: int
    stream_name: str
    report_date: date
    key_highlights: list[str]
    thematic_summary: str
    article_count: int
    created_at: datetime


class ReportsPublic(BaseModel):
    data: list[ReportPublic]
    count: int


class ArticlePublic(BaseModel):
    pmid: str
    title: str
    abstract: str
    authors: list[str]
    journal: str
    year: int | None
    doi: str | None
    mesh_terms: list[str]
    source: str


class ReportArticlePublic(ArticlePublic):
    """An article as a report lists it: the record and the report's facts about it."""

    report_id: int
    relevance_score: float
    rationale: str
    ranking: int
    category: str | None
    starred: bool
    notes: str


class ReportDetail(ReportPublic):
    articles: list[ReportArticlePublic]


class ReportArticleUpdate(_Schema):
    """Star or unstar an article of a report, or replace its notes."""

    starred: bool | None = None
    notes: str | None = Field(default=None, max_length=10_000)


class ReportEntry(BaseModel):
    """Where an article appears in the user's reports."""

    report_id: int
    report_date: date
    stream_id: int
    stream_name: str
    relevance_score: float
    ranking: int
    category: str | None
    starred: bool
    notes: str


class ArticleDetail(ArticlePublic):
    reports: list[ReportEntry]


class ArticleMatchPublic(ArticlePublic):
    score: float


class ArticleSearchResults(BaseModel):
    query: str
    total: int
    data: list[ArticleMatchPublic]
