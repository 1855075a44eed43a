"""Horizon's tables: research streams, reports, report articles, articles; article search.

Full-text search is made here, per database: on SQLite an FTS5 table over the
articles (external content, kept in sync by triggers); on PostgreSQL a generated
`search_vector` column with a GIN index. Neither is in the ORM tables, which
describe what every database has.

Revision ID: horizon_0001
Revises:
Create Date: 2025-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "horizon_0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = ("horizon",)
depends_on: str | Sequence[str] | None = "pagechat_0001"

_json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
_time = sa.DateTime(timezone=True)

# The columns searched, best first: title, MeSH terms, abstract, authors.
_FTS_COLUMNS = "title, mesh_terms, abstract, authors"
_SQLITE_FTS = (
    f"""CREATE VIRTUAL TABLE articles_fts USING fts5(
        {_FTS_COLUMNS},
        content='articles', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    f"""CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
        INSERT INTO articles_fts(rowid, {_FTS_COLUMNS})
        VALUES (new.id, new.title, new.mesh_terms, new.abstract, new.authors);
    END""",
    f"""CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles BEGIN
        INSERT INTO articles_fts(articles_fts, rowid, {_FTS_COLUMNS})
        VALUES ('delete', old.id, old.title, old.mesh_terms, old.abstract, old.authors);
    END""",
    f"""CREATE TRIGGER articles_fts_update AFTER UPDATE ON articles BEGIN
        INSERT INTO articles_fts(articles_fts, rowid, {_FTS_COLUMNS})
        VALUES ('delete', old.id, old.title, old.mesh_terms, old.abstract, old.authors);
        INSERT INTO articles_fts(rowid, {_FTS_COLUMNS})
        VALUES (new.id, new.title, new.mesh_terms, new.abstract, new.authors);
    END""",
)
# PostgreSQL's parser reads "CRISPR/Cas9" as one file-path token; slashes become spaces
# so its words are found, as they are by FTS5.
_POSTGRES_FTS = (
    """ALTER TABLE articles ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english'::regconfig, translate(title, '/', ' ')), 'A')
        || setweight(jsonb_to_tsvector('english'::regconfig, mesh_terms, '["string"]'), 'B')
        || setweight(to_tsvector('english'::regconfig, translate(abstract, '/', ' ')), 'C')
        || setweight(jsonb_to_tsvector('simple'::regconfig, authors, '["string"]'), 'D')
    ) STORED""",
    "CREATE INDEX ix_articles_search_vector ON articles USING gin (search_vector)",
)


def upgrade() -> None:
    op.create_table(
        "research_streams",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("purpose", sa.Text(), nullable=False),
        sa.Column("semantic_space", _json, nullable=False),
        sa.Column("retrieval_config", _json, nullable=False),
        sa.Column("presentation_config", _json, nullable=False),
        sa.Column("created_at", _time, nullable=False),
        sa.Column("updated_at", _time, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_research_streams_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_research_streams"),
    )
    op.create_index("ix_research_streams_user_id", "research_streams", ["user_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("stream_id", sa.Integer(), nullable=False),
        sa.Column("report_date", sa.Date(), nullable=False),
        sa.Column("key_highlights", _json, nullable=False),
        sa.Column("thematic_summary", sa.Text(), nullable=False),
        sa.Column("created_at", _time, nullable=False),
        sa.ForeignKeyConstraint(
            ["stream_id"],
            ["research_streams.id"],
            name="fk_reports_stream_id_research_streams",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_stream_date", "reports", ["stream_id", "report_date"])
    op.create_table(
        "articles",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("pmid", sa.String(20), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("abstract", sa.Text(), nullable=False),
        sa.Column("authors", _json, nullable=False),
        sa.Column("journal", sa.String(500), nullable=False),
        sa.Column("year", sa.Integer(), nullable=True),
        sa.Column("doi", sa.String(255), nullable=True),
        sa.Column("mesh_terms", _json, nullable=False),
        sa.Column("source", sa.String(500), nullable=False),
        sa.Column("created_at", _time, nullable=False),
        sa.Column("updated_at", _time, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_articles"),
        sa.UniqueConstraint("pmid", name="uq_articles_pmid"),
    )
    op.create_table(
        "report_articles",
        sa.Column("report_id", sa.Integer(), nullable=False),
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.Column("relevance_score", sa.Float(), nullable=False),
        sa.Column("rationale", sa.Text(), nullable=False),
        sa.Column("ranking", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(200), nullable=True),
        sa.Column("starred", sa.Boolean(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("updated_at", _time, nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"],
            ["reports.id"],
            name="fk_report_articles_report_id_reports",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["article_id"], ["articles.id"], name="fk_report_articles_article_id_articles"
        ),
        sa.PrimaryKeyConstraint("report_id", "article_id", name="pk_report_articles"),
    )
    op.create_index("ix_report_articles_article_id", "report_articles", ["article_id"])
    dialect = op.get_bind().dialect.name
    statements = {"sqlite": _SQLITE_FTS, "postgresql": _POSTGRES_FTS}.get(dialect, ())
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for trigger in ("articles_fts_update", "articles_fts_delete", "articles_fts_insert"):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        op.execute("DROP TABLE IF EXISTS articles_fts")
    op.drop_index("ix_report_articles_article_id", table_name="report_articles")
    op.drop_table("report_articles")
    op.drop_table("articles")
    op.drop_index("ix_reports_stream_date", table_name="reports")
    op.drop_table("reports")
    op.drop_index("ix_research_streams_user_id", table_name="research_streams")
    op.drop_table("research_streams")
