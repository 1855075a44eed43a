"""`search_pubmed` (streams its progress) and `get_pubmed_article`.

They read from the source `HORIZON_PUBMED` selects (see `horizon.sources`): the
local article store by default, or PubMed's E-utilities.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from typing import Any

from pagechat.tools import ToolContext, ToolProgress, ToolResult

from ..domain import Article
from ..payloads import (
    PUBMED_ARTICLE,
    PUBMED_ARTICLE_SCHEMA,
    PUBMED_SEARCH_RESULTS,
    PUBMED_SEARCH_RESULTS_SCHEMA,
)
from ..pubmed import EutilsError
from ..settings import HorizonSettings
from ..sources import EutilsPubmed, PubmedSource, open_pubmed_source
from ..tool_specs import GET_PUBMED_ARTICLE, SEARCH_PUBMED
from .common import (
    NoScope,
    article_data,
    article_line,
    article_text,
    error,
    from_spec,
    scope,
    source_of,
)

__all__ = ["GET_PUBMED_ARTICLE_TOOL", "SEARCH_PUBMED_TOOL", "get_pubmed_article", "search_pubmed"]

DEFAULT_MAX_RESULTS = 10
FETCH_BATCH = 5
"""Records fetched per step; each step reports the share of records fetched before it."""
_PMID = re.compile(r"^(?:\d{1,12}|[A-Z]{1,3}\d{1,12})$")


async def _fetch(
    source: PubmedSource, pmids: list[str]
) -> AsyncIterator[ToolProgress | list[Article]]:
    batches = [pmids[i : i + FETCH_BATCH] for i in range(0, len(pmids), FETCH_BATCH)]
    found: list[Article] = []
    for number, batch in enumerate(batches):
        first = number * FETCH_BATCH + 1
        yield ToolProgress(
            "fetching",
            f"Fetching records {first}–{first + len(batch) - 1} of {len(pmids)}",
            (first - 1) / len(pmids),
        )
        found += await source.fetch(batch)
    yield found


def _results_text(query: str, total: int, articles: list[Article], label: str) -> str:
    if not articles:
        return f'No articles found for "{query}" in {label}.'
    head = f'Found {total} articles for "{query}" in {label}; the best {len(articles)}:'
    return "\n".join([head, *(f"{n}. {article_line(a)}" for n, a in enumerate(articles, 1))])


async def search_pubmed(
    params: dict[str, Any], ctx: ToolContext
) -> AsyncIterator[ToolProgress | ToolResult]:
    """Search, then fetch the records in steps, reporting progress; end with the list."""
    query = " ".join(str(params["query"]).split())
    limit = int(params.get("max_results", DEFAULT_MAX_RESULTS))
    try:
        session, _user_id = scope(ctx)
    except NoScope as exc:
        yield error(str(exc))
        return
    articles: list[Article] = []
    try:
        async with open_pubmed_source(session) as source:
            yield ToolProgress("searching", f"Searching {source.label} for “{query}”", None)
            found = await source.search(query, limit)
            async for item in _fetch(source, found.pmids):
                if isinstance(item, ToolProgress):
                    yield item
                else:
                    articles = item
            label = source.label
            where = "pubmed" if isinstance(source, EutilsPubmed) else "local"
    except EutilsError as exc:
        yield error(f"The PubMed search failed: {exc}")
        return
    yield ToolProgress("done", f"{len(articles)} of {found.total} articles ready", 1.0)
    text = _results_text(query, found.total, articles, label)
    if found.notes:
        text += "\nNotes from PubMed: " + "; ".join(found.notes)
    payload = {
        "type": PUBMED_SEARCH_RESULTS,
        "data": {
            "query": query,
            "total": found.total,
            "articles": [article_data(a, full=False) for a in articles],
            "source": where,
        },
    }
    yield ToolResult(text, payload, sources=[source_of(a) for a in articles])


async def get_pubmed_article(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """One article's full record, as text and as an article card."""
    pmid = str(params["pmid"]).strip().upper()
    if not _PMID.match(pmid):
        return error(f"{params['pmid']!r} is not a PubMed ID (PMIDs are numbers, e.g. 38012345).")
    try:
        session, _user_id = scope(ctx)
        async with open_pubmed_source(session) as source:
            found = await source.fetch([pmid])
            label = source.label
    except NoScope as exc:
        return error(str(exc))
    except EutilsError as exc:
        return error(f"Fetching PMID {pmid} from PubMed failed: {exc}")
    if not found:
        return error(f"PMID {pmid} was not found in {label}.")
    article = found[0]
    return ToolResult(
        article_text(article),
        {"type": PUBMED_ARTICLE, "data": article_data(article)},
        sources=[source_of(article)],
    )


def _searches_online(params: dict[str, Any]) -> bool:
    """A search of PubMed itself leaves the app (the query goes to NCBI): the user says yes
    first. The local library is searched without asking."""
    return HorizonSettings().pubmed == "eutils"


SEARCH_PUBMED_TOOL = dataclasses.replace(
    from_spec(SEARCH_PUBMED, search_pubmed),
    requires_approval=_searches_online,
    approval_reason=lambda params: (
        f"Sends the query “{params.get('query', '')}” to PubMed (NCBI) online."
    ),
    payload_schema=PUBMED_SEARCH_RESULTS_SCHEMA,
)
GET_PUBMED_ARTICLE_TOOL = dataclasses.replace(
    from_spec(GET_PUBMED_ARTICLE, get_pubmed_article), payload_schema=PUBMED_ARTICLE_SCHEMA
)
