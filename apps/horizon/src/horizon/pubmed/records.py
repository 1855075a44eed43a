"""The article record every PubMed source (files, E-utilities, the sample corpus) produces."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ArticleRecord", "DeletedCitation"]


@dataclass(frozen=True, slots=True)
class ArticleRecord:
    """One citation, reduced to what Horizon shows, searches and stores.

    `abstract` joins structured sections as "LABEL: text" paragraphs separated by a
    blank line. `authors` are "Last FI" or a collective name, in the article's order.
    `source` says where the record came from: a corpus file's path, "eutils" or
    "synthetic".
    """

    pmid: str
    title: str
    abstract: str
    authors: tuple[str, ...]
    journal: str
    year: int | None
    doi: str | None
    mesh_terms: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class DeletedCitation:
    """A `DeleteCitation` entry: NLM withdrew this PMID, so a local copy must go too."""

    pmid: str
    source: str
