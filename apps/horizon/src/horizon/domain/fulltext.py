"""Full-text matching of articles, on SQLite (FTS5) and PostgreSQL (tsvector).

A query is read leniently into terms: words, and phrases (quoted text, or words
joined by hyphens such as "CAR-T"). PubMed syntax is tolerated: field tags
(`[Title/Abstract]`), boolean operators and parentheses are dropped, so a stream's
retrieval query searches the local store too. Terms are always passed to the
database as quoted phrases or bound parameters, so no query can be a syntax error.

`match_ids` gives a selectable of `(article_id, score)` rows, higher scores better:
with `require_all` every term must match, otherwise any one. Titles weigh most,
then MeSH terms, then abstracts, then authors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Float, Integer, Select, String, bindparam, func, literal_column, select, text
from sqlalchemy.sql.elements import ColumnElement

from .tables import Article

__all__ = ["SearchTerms", "Term", "match_ids", "parse_query"]

MAX_TERMS = 16

_QUOTED = re.compile(r'"([^"]*)"')
_FIELD_TAG = re.compile(r"\[[^\]]*\]")
_CHUNK = re.compile(r"[^\s()]+")
_WORD = re.compile(r"[^\W_]+")
_OPERATORS = frozenset({"and", "or", "not"})
_STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is",
        "it", "its", "of", "on", "or", "not", "that", "the", "their", "this", "to", "was",
        "were", "with", "without",
    }
)  # fmt: skip
# FTS5 column weights for bm25, in the table's column order: title, mesh_terms, abstract, authors.
_BM25 = "bm25(articles_fts, 10.0, 5.0, 1.0, 2.0)"


@dataclass(frozen=True, slots=True)
class Term:
    """One searchable term: a word, a quoted phrase, or a compound ("CAR-T", "CRISPR/Cas9")."""

    words: tuple[str, ...]
    """Lower-cased words, in order."""
    text: str
    """The term as written (a compound keeps its hyphens)."""
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class SearchTerms:
    """The terms of a query, in order, each once."""

    terms: tuple[Term, ...]

    def __bool__(self) -> bool:
        return bool(self.terms)

    @property
    def is_single(self) -> bool:
        return len(self.terms) == 1


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.casefold() for w in _WORD.findall(text))


def parse_query(query: str) -> SearchTerms:
    """The searchable terms of `query`; empty when nothing in it is searchable."""
    found: dict[tuple[str, ...], Term] = {}
    without_tags = _FIELD_TAG.sub(" ", query)
    for phrase in _QUOTED.findall(without_tags):
        words = _words(phrase)
        if words:
            found.setdefault(words, Term(words, " ".join(words), quoted=True))
    for chunk in _CHUNK.findall(_QUOTED.sub(" ", without_tags)):
        words = _words(chunk)
        if len(words) == 1 and (words[0] in _STOPWORDS or words[0] in _OPERATORS):
            continue
        if words:
            found.setdefault(words, Term(words, chunk))
    return SearchTerms(tuple(found.values())[:MAX_TERMS])


def match_ids(dialect: str, terms: SearchTerms, *, require_all: bool) -> Select[int, float]:
    """`(article_id, score)` of the articles matching `terms`; `terms` must not be empty."""
    if not terms:
        raise ValueError("no search terms")
    if dialect == "sqlite":
        return _sqlite_match(terms, require_all=require_all)
    if dialect == "postgresql":
        return _postgres_match(terms, require_all=require_all)
    raise ValueError(f"full-text search runs on SQLite and PostgreSQL, not {dialect}")


def _fts5_phrase(term: Term) -> str:
    # Every term is an FTS5 string (a phrase of its words): no query syntax can get in.
    return '"' + " ".join(term.words).replace('"', '""') + '"'


def _sqlite_match(terms: SearchTerms, *, require_all: bool) -> Select[int, float]:
    joiner = " AND " if require_all else " OR "
    expression = joiner.join(map(_fts5_phrase, terms.terms))
    matched = (
        text(
            f"SELECT rowid AS article_id, -{_BM25} AS score "
            "FROM articles_fts WHERE articles_fts MATCH :fts_query"
        )
        .bindparams(bindparam("fts_query", expression, type_=String()))
        .columns(article_id=Integer(), score=Float())
        .subquery("fts")
    )
    return select(matched.c.article_id, matched.c.score)


def _postgres_match(terms: SearchTerms, *, require_all: bool) -> Select[int, float]:
    query: ColumnElement[object] | None = None
    for number, term in enumerate(terms.terms):
        # A quoted phrase keeps its word order. A compound goes to PostgreSQL as written
        # ("car-t" is one of its tokens; "t" alone is a stop word), slashes as spaces.
        if term.quoted:
            function, value = func.phraseto_tsquery, " ".join(term.words)
        else:
            function, value = func.plainto_tsquery, term.text.replace("/", " ")
        param = bindparam(f"fts_term_{number}", value, type_=String())
        term_query = function(literal_column("'english'::regconfig"), param)
        query = term_query if query is None else query.op("&&" if require_all else "||")(term_query)
    assert query is not None
    vector: ColumnElement[object] = literal_column("articles.search_vector")
    score = func.ts_rank(vector, query, 1, type_=Float()).label("score")
    return select(Article.id.label("article_id"), score).where(vector.op("@@")(query))
