"""Ranking articles against a free-text query, without a database.

Used by the offline model and by tests; the stored corpus gets real full-text search
from the database. Matching is on whole words after light plural folding, so
"cells" finds "cell" and "therapies" finds "therapy".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .records import ArticleRecord

__all__ = ["match_score", "rank_records", "tokenize"]

_WORD = re.compile(r"[^\W_]+")
_STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into",
        "is", "of", "on", "or", "the", "to", "with", "without",
    }
)  # fmt: skip
TITLE_WEIGHT = 3.0
MESH_WEIGHT = 2.0
ABSTRACT_WEIGHT = 1.0
_MAX_WEIGHT = TITLE_WEIGHT + MESH_WEIGHT + ABSTRACT_WEIGHT


def tokenize(text: str) -> list[str]:
    """Lower-cased words in order, stop words dropped, plurals folded to singular."""
    return [_singular(word) for word in _WORD.findall(text.casefold()) if word not in _STOPWORDS]


def match_score(record: ArticleRecord, query: str) -> float:
    """How well `record` matches `query`; 0.0 means not at all.

    The whole part is how many of the query's words the record has, so having more
    of them always ranks higher. The fraction says where they are: each word counts
    3 in the title, 2 in the MeSH terms and 1 in the abstract.
    """
    words = list(dict.fromkeys(tokenize(query)))
    if not words:
        return 0.0
    title = set(tokenize(record.title))
    mesh = set(tokenize(" ".join(record.mesh_terms)))
    abstract = set(tokenize(record.abstract))
    found = 0
    weight = 0.0
    for word in words:
        here = (
            TITLE_WEIGHT * (word in title)
            + MESH_WEIGHT * (word in mesh)
            + ABSTRACT_WEIGHT * (word in abstract)
        )
        if here:
            found += 1
            weight += here
    return found + weight / (_MAX_WEIGHT * len(words) + 1)


def rank_records(
    records: Iterable[ArticleRecord], query: str, limit: int | None = None
) -> list[ArticleRecord]:
    """Records that match at all, best first; ties go to the newer, then the lower PMID."""
    scored = [(match_score(record, query), record) for record in records]
    ranked = sorted(
        ((score, record) for score, record in scored if score > 0),
        key=lambda pair: (-pair[0], -(pair[1].year or 0), pair[1].pmid),
    )
    return [record for _score, record in ranked[:limit]]


def _singular(word: str) -> str:
    if len(word) <= 3 or not word.endswith("s"):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "uses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    return word[:-1]
