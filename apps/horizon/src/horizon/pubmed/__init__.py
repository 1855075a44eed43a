"""PubMed for Horizon: the article record, XML parsing, local corpora, E-utilities, ranking."""

from .corpus import (
    SYNTHETIC_JOURNAL,
    SYNTHETIC_PMID_PREFIX,
    SYNTHETIC_SOURCE,
    SYNTHETIC_TOPICS,
    corpus_files,
    is_synthetic,
    iter_corpus,
    iter_corpus_items,
    synthetic_corpus,
)
from .eutils import DEFAULT_BASE_URL, MAX_EFETCH_BATCH, EutilsClient, EutilsError, SearchResult
from .parse import (
    ParseResult,
    PubmedItem,
    PubmedParseError,
    PubmedSource,
    iter_pubmed_xml,
    parse_pubmed_xml,
    read_pubmed_xml,
)
from .ratelimit import RateLimiter
from .records import ArticleRecord, DeletedCitation
from .search import match_score, rank_records, tokenize

__all__ = [
    "DEFAULT_BASE_URL",
    "MAX_EFETCH_BATCH",
    "SYNTHETIC_JOURNAL",
    "SYNTHETIC_PMID_PREFIX",
    "SYNTHETIC_SOURCE",
    "SYNTHETIC_TOPICS",
    "ArticleRecord",
    "DeletedCitation",
    "EutilsClient",
    "EutilsError",
    "ParseResult",
    "PubmedItem",
    "PubmedParseError",
    "PubmedSource",
    "RateLimiter",
    "SearchResult",
    "corpus_files",
    "is_synthetic",
    "iter_corpus",
    "iter_corpus_items",
    "iter_pubmed_xml",
    "match_score",
    "parse_pubmed_xml",
    "rank_records",
    "read_pubmed_xml",
    "synthetic_corpus",
    "tokenize",
]
