"""Horizon's tables, declared on pagechat's shared `Base`.

Research streams, their reports and the report entries belong to a user (a stream
has the owner; a report and its entries belong through their stream). Articles
are shared reference data: PubMed is public, so one copy of a record serves every
user, and only what a user makes of it (a report entry, a star, a note) is theirs.

Full-text search over articles lives beside these tables and only in the
migration, because it differs per database: an FTS5 table kept in sync by
triggers on SQLite, a generated `tsvector` column with a GIN index on PostgreSQL
(see `horizon.domain.fulltext`).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from pagechat.store import Base, JsonColumn, utcnow

__all__ = ["Article", "Report", "ReportArticle", "ResearchStream"]


class ResearchStream(Base):
    """A standing literature search of one user, in three layers.

    `semantic_space` is `{topics: [{name, description}], entities: [{name, type}],
    inclusion_notes, exclusion_notes}`, `retrieval_config` is `{queries: [{source,
    query, rationale}]}` and `presentation_config` is `{categories: [{name,
    description}]}`: the shapes of `horizon.payloads`.
    """

    __tablename__ = "research_streams"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    purpose: Mapped[str] = mapped_column(Text, default="")
    semantic_space: Mapped[dict[str, Any]] = mapped_column(default=dict)
    retrieval_config: Mapped[dict[str, Any]] = mapped_column(default=dict)
    presentation_config: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Report(Base):
    """One run of a stream: the articles found, with highlights and a summary."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_stream_date", "stream_id", "report_date"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    stream_id: Mapped[int] = mapped_column(ForeignKey("research_streams.id", ondelete="CASCADE"))
    report_date: Mapped[date]
    key_highlights: Mapped[list[str]] = mapped_column(JsonColumn, default=list)
    thematic_summary: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ReportArticle(Base):
    """An article in a report: how relevant, why, where it ranks, and the user's marks."""

    __tablename__ = "report_articles"

    report_id: Mapped[int] = mapped_column(
        ForeignKey("reports.id", ondelete="CASCADE"), primary_key=True
    )
    article_id: Mapped[int] = mapped_column(ForeignKey("articles.id"), primary_key=True, index=True)
    relevance_score: Mapped[float] = mapped_column(Float)
    rationale: Mapped[str] = mapped_column(Text, default="")
    ranking: Mapped[int] = mapped_column(Integer)
    category: Mapped[str | None] = mapped_column(String(200))
    starred: Mapped[bool] = mapped_column(Boolean, default=False)
    notes: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Article(Base):
    """A PubMed citation (or a synthetic sample record), one row per PMID."""

    __tablename__ = "articles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    """The full-text index's row id; everything else refers to articles by PMID."""
    pmid: Mapped[str] = mapped_column(String(20), unique=True)
    title: Mapped[str] = mapped_column(Text)
    abstract: Mapped[str] = mapped_column(Text, default="")
    authors: Mapped[list[str]] = mapped_column(JsonColumn, default=list)
    journal: Mapped[str] = mapped_column(String(500), default="")
    year: Mapped[int | None] = mapped_column(Integer)
    doi: Mapped[str | None] = mapped_column(String(255))
    mesh_terms: Mapped[list[str]] = mapped_column(JsonColumn, default=list)
    source: Mapped[str] = mapped_column(String(500), default="")
    """Where the record came from: a corpus file's path, "eutils" or "synthetic"."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
