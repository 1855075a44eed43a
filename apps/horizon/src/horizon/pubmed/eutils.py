"""A client for NCBI E-utilities (esearch and efetch on PubMed), on httpx.

Every request of one client goes through one `RateLimiter` (NCBI: 3 requests a
second, 10 with an API key), so concurrent callers cannot exceed the limit together.
429 and 5xx answers and network failures are retried a bounded number of times,
honouring `Retry-After`; anything else becomes an `EutilsError`. Nothing here runs
at import time, and the API key never appears in error messages.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal

import httpx

from pagechat.models import retry_after_seconds

from .parse import PubmedParseError, read_pubmed_xml
from .ratelimit import RateLimiter
from .records import ArticleRecord

__all__ = ["DEFAULT_BASE_URL", "MAX_EFETCH_BATCH", "EutilsClient", "EutilsError", "SearchResult"]

DEFAULT_BASE_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/"
MAX_EFETCH_BATCH = 200
"""NCBI asks for at most 200 UIDs per request."""

_GET_MAX_IDS = 50
"""Above this many ids efetch POSTs, as NCBI recommends, to keep URLs short."""

_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_XML_ERROR = re.compile(rb"<ERROR>(.*?)</ERROR>", re.DOTALL)

Method = Literal["GET", "POST"]


class EutilsError(Exception):
    """E-utilities failed: an HTTP error, an error in the answer, or no answer at all.

    `status` is the HTTP status (None when there was no response).
    """

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One page of an esearch: the total hit count and this page's PMIDs, best first."""

    count: int
    pmids: list[str]
    query_translation: str | None
    warnings: tuple[str, ...] = ()
    """NCBI's notes on the query, e.g. "phrase not found: abcXYZ" or "No items found."."""


class EutilsClient:
    """PubMed through E-utilities. Use as `async with EutilsClient(...) as client:`.

    Share one client across an application: its rate limit only covers its own
    requests (or pass the same `rate_limiter` to several clients).
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        *,
        api_key: str | None = None,
        tool: str = "horizon",
        email: str | None = None,
        requests_per_second: float | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 60.0,
        efetch_batch_size: int = MAX_EFETCH_BATCH,
        rate_limiter: RateLimiter | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not 1 <= efetch_batch_size <= MAX_EFETCH_BATCH:
            raise ValueError(f"efetch_batch_size must be between 1 and {MAX_EFETCH_BATCH}")
        if max_retries < 0:
            raise ValueError("max_retries must not be negative")
        self.base_url = base_url.rstrip("/") + "/"
        self.api_key = api_key
        self.tool = tool
        self.email = email
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_retry_wait = max_retry_wait
        self.efetch_batch_size = efetch_batch_size
        if rate_limiter is None:
            rate = requests_per_second or (10.0 if api_key else 3.0)
            rate_limiter = RateLimiter(rate)
        self.rate_limiter = rate_limiter
        self._http = httpx.AsyncClient(
            timeout=timeout,
            transport=transport,
            headers={"User-Agent": f"{tool} (pagechat Horizon)"},
        )

    async def __aenter__(self) -> EutilsClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def esearch(
        self,
        term: str,
        retmax: int = 20,
        retstart: int = 0,
        sort: str | None = None,
        mindate: str | None = None,
        maxdate: str | None = None,
        datetype: str = "pdat",
    ) -> SearchResult:
        """Search PubMed. `sort` is an NCBI sort order ("relevance", "pub_date", ...);
        `mindate`/`maxdate` ("2020", "2020/06/01") go together and filter on `datetype`.
        """
        if retmax < 0 or retstart < 0:
            raise ValueError("retmax and retstart must not be negative")
        if (mindate is None) != (maxdate is None):
            raise ValueError("E-utilities needs both mindate and maxdate, or neither")
        params = {
            "db": "pubmed",
            "term": term,
            "retmode": "json",
            "retmax": str(retmax),
            "retstart": str(retstart),
        }
        if sort:
            params["sort"] = sort
        if mindate is not None and maxdate is not None:
            params.update(mindate=mindate, maxdate=maxdate, datetype=datetype)
        response = await self._request("GET", "esearch.fcgi", params)
        return _search_result(response)

    async def efetch(self, pmids: Sequence[str]) -> list[ArticleRecord]:
        """Fetch full records, in the order of `pmids`; PMIDs PubMed has no record
        for are left out. Duplicates are fetched once."""
        wanted = list(dict.fromkeys(pmid.strip() for pmid in pmids))
        invalid = [pmid for pmid in wanted if not pmid.isdigit()]
        if invalid:
            raise ValueError(f"not PubMed ids: {', '.join(invalid[:5])}")
        found: dict[str, ArticleRecord] = {}
        for start in range(0, len(wanted), self.efetch_batch_size):
            batch = wanted[start : start + self.efetch_batch_size]
            method: Method = "POST" if len(batch) > _GET_MAX_IDS else "GET"
            params = {"db": "pubmed", "id": ",".join(batch), "retmode": "xml"}
            response = await self._request(method, "efetch.fcgi", params)
            try:
                parsed = read_pubmed_xml(response.content, source_name="eutils")
            except PubmedParseError as err:
                detail = _error_detail(response) or str(err)
                raise EutilsError(
                    f"efetch returned no PubMed records: {detail}", status=response.status_code
                ) from err
            found.update((record.pmid, record) for record in parsed.records)
        return [found[pmid] for pmid in wanted if pmid in found]

    async def search(
        self, term: str, max_results: int = 20, *, sort: str | None = None
    ) -> list[ArticleRecord]:
        """The first `max_results` records of a search, fetched in full."""
        result = await self.esearch(term, retmax=max_results, sort=sort)
        if not result.pmids:
            return []
        return await self.efetch(result.pmids)

    async def _request(
        self, method: Method, endpoint: str, params: Mapping[str, str]
    ) -> httpx.Response:
        params = {**params, "tool": self.tool}
        if self.email:
            params["email"] = self.email
        if self.api_key:
            params["api_key"] = self.api_key
        url = self.base_url + endpoint
        attempt = 0
        while True:
            await self.rate_limiter.acquire()
            try:
                if method == "POST":
                    response = await self._http.post(url, data=params)
                else:
                    response = await self._http.get(url, params=params)
            except httpx.TransportError as err:
                error = EutilsError(f"{endpoint}: no answer from E-utilities ({err!r})")
                delay = self.backoff * 2**attempt
            else:
                if response.status_code < 400:
                    return response
                retry_after = retry_after_seconds(response.headers)
                detail = _error_detail(response) or response.reason_phrase
                error = EutilsError(
                    f"{endpoint} answered HTTP {response.status_code}: {detail}",
                    status=response.status_code,
                    retry_after=retry_after,
                )
                if response.status_code not in _RETRY_STATUSES:
                    raise error
                delay = retry_after if retry_after is not None else self.backoff * 2**attempt
            if attempt >= self.max_retries or delay > self.max_retry_wait:
                raise error
            attempt += 1
            await asyncio.sleep(delay)


def _search_result(response: httpx.Response) -> SearchResult:
    try:
        body: Any = response.json()
    except ValueError as err:
        raise EutilsError(
            "esearch answered with invalid JSON", status=response.status_code
        ) from err
    result = body.get("esearchresult") if isinstance(body, dict) else None
    if not isinstance(result, dict):
        raise EutilsError("esearch answer has no esearchresult", status=response.status_code)
    if result.get("ERROR"):
        raise EutilsError(f"esearch: {result['ERROR']}", status=response.status_code)
    try:
        count = int(result.get("count", 0))
        pmids = [str(pmid) for pmid in result.get("idlist", [])]
    except (TypeError, ValueError) as err:
        raise EutilsError(
            f"esearch answer is malformed: {err}", status=response.status_code
        ) from err
    return SearchResult(
        count=count,
        pmids=pmids,
        query_translation=result.get("querytranslation") or None,
        warnings=_search_warnings(result),
    )


def _search_warnings(result: Mapping[str, Any]) -> tuple[str, ...]:
    notes: list[str] = []
    for section, key, prefix in (
        ("errorlist", "phrasesnotfound", "phrase not found: "),
        ("errorlist", "fieldsnotfound", "field not found: "),
        ("warninglist", "phrasesignored", "phrase ignored: "),
        ("warninglist", "quotedphrasesnotfound", "quoted phrase not found: "),
        ("warninglist", "outputmessages", ""),
    ):
        values = result.get(section, {})
        if isinstance(values, dict):
            notes += [f"{prefix}{value}" for value in values.get(key, []) or [] if value]
    return tuple(notes)


def _error_detail(response: httpx.Response) -> str | None:
    """NCBI's own words about an error: JSON {"error": ...} or XML <ERROR>...</ERROR>."""
    content = response.content
    try:
        body: Any = json.loads(content)
    except ValueError:
        body = None
    if isinstance(body, dict):
        nested = body.get("esearchresult")
        message = body.get("error") or (nested.get("ERROR") if isinstance(nested, dict) else None)
        if message:
            return str(message)
    match = _XML_ERROR.search(content)
    if match:
        return match.group(1).decode("utf-8", "replace").strip()
    return None
