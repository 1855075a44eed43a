"""A fake NCBI E-utilities server on 127.0.0.1, answering with real NCBI output.

It reads the real files in place from `<shared>/data/pubmed` (never copies them):

- esearch.fcgi (retmode=json): "cancer" answers NCBI's saved JSON
  (fixtures/ncbi_eutils_json/esearch.pubmed.json); "biopython", "PNAS[ta] AND 97[vi]"
  and "abcXYZ" answer Biopython's captured XML responses, converted into the JSON
  layout. Any other term is matched against the titles and abstracts of the
  metapub records, so a search finds PMIDs that efetch can serve. retstart/retmax
  page through the ids; a db other than pubmed gets NCBI's "Invalid db name" error.
- efetch.fcgi (GET or POST, retmode=xml): the requested records from
  corpus/metapub_pmid_xml/<pmid>.xml, byte for byte, in one PubmedArticleSet as
  efetch returns several; unknown PMIDs are left out.

Every request is recorded with its arrival time (time.monotonic), and
`fail_next()` makes the next requests fail, e.g. with 429 and Retry-After.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl

import uvicorn
from lxml import etree
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

__all__ = ["FakeEutils", "RecordedRequest"]

_PREFIX = "/entrez/eutils/"
_XML_PARSER = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True)
_ARTICLE_SET = re.compile(rb"^(.*?)<PubmedArticleSet>(.*)</PubmedArticleSet>", re.DOTALL)
_WORD = re.compile(r"[^\W_]+")
_BIOPYTHON_SEARCHES = {
    "biopython": "esearch1.xml",
    "PNAS[ta] AND 97[vi]": "esearch3.xml",
    "abcXYZ": "esearch8.xml",
}
# The body NCBI sends with a 429 when a client goes over its rate limit.
_RATE_LIMIT_BODY = b'{"error":"API rate limit exceeded","count":"4","limit":"3"}'


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    time: float
    method: str
    endpoint: str
    params: dict[str, str]


@dataclass(frozen=True, slots=True)
class _Failure:
    status: int
    retry_after: str | None


class FakeEutils:
    def __init__(self, pubmed_dir: Path) -> None:
        self.pubmed_dir = pubmed_dir
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._failures: deque[_Failure] = deque()
        self._searches = self._load_searches()
        self._bad_db = self._json_file("esearch.baderror.json")
        self._corpus_words: dict[str, frozenset[str]] | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._port = 0

    @property
    def metapub_dir(self) -> Path:
        return self.pubmed_dir / "corpus" / "metapub_pmid_xml"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}{_PREFIX}"

    def fail_next(
        self, times: int = 1, *, status: int = 429, retry_after: str | None = "1"
    ) -> None:
        """Answer the next `times` requests with `status` (and this Retry-After)."""
        with self._lock:
            self._failures.extend(_Failure(status, retry_after) for _ in range(times))

    def reset(self) -> None:
        """Forget recorded requests and planned failures (to reuse one server)."""
        with self._lock:
            self.requests.clear()
            self._failures.clear()

    def requests_to(self, endpoint: str) -> list[RecordedRequest]:
        with self._lock:
            return [request for request in self.requests if request.endpoint == endpoint]

    def start(self) -> FakeEutils:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        self._port = listener.getsockname()[1]
        config = uvicorn.Config(self._app(), log_level="warning", access_log=False, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [listener]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the fake E-utilities server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeEutils:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _app(self) -> Starlette:
        return Starlette(
            routes=[
                Route(_PREFIX + "esearch.fcgi", self._esearch, methods=["GET", "POST"]),
                Route(_PREFIX + "efetch.fcgi", self._efetch, methods=["GET", "POST"]),
            ]
        )

    async def _begin(
        self, request: Request, endpoint: str
    ) -> tuple[dict[str, str], Response | None]:
        arrived = time.monotonic()
        params = dict(request.query_params)
        if request.method == "POST":
            params.update(parse_qsl((await request.body()).decode()))
        with self._lock:
            self.requests.append(RecordedRequest(arrived, request.method, endpoint, params))
            failure = self._failures.popleft() if self._failures else None
        if failure is None:
            return params, None
        headers = {"Retry-After": failure.retry_after} if failure.retry_after is not None else {}
        if failure.status == 429:
            return params, Response(_RATE_LIMIT_BODY, 429, headers, media_type="application/json")
        page = b"<html><body>Server Error</body></html>"
        return params, Response(page, failure.status, headers, media_type="text/html")

    async def _esearch(self, request: Request) -> Response:
        params, failure = await self._begin(request, "esearch")
        if failure is not None:
            return failure
        if params.get("retmode") != "json":
            return Response(b"this fake only speaks retmode=json", 400)
        header, bad_db = self._bad_db
        db = params.get("db", "pubmed")
        if db != "pubmed":
            # The saved answer names the db its request asked for ("fleegle").
            error = {**bad_db, "ERROR": bad_db["ERROR"].replace("fleegle", db)}
            return JSONResponse({"header": header, "esearchresult": error})
        term = params.get("term", "")
        result = dict(self._searches.get(term) or self._search_corpus(term))
        retstart = int(params.get("retstart", "0"))
        retmax = int(params.get("retmax", "20"))
        ids: list[str] = result["idlist"]
        first = int(result["retstart"])
        page = [
            ids[i - first] for i in range(retstart, retstart + retmax) if 0 <= i - first < len(ids)
        ]
        result.update(idlist=page, retmax=str(len(page)), retstart=str(retstart))
        return JSONResponse({"header": header, "esearchresult": result})

    async def _efetch(self, request: Request) -> Response:
        params, failure = await self._begin(request, "efetch")
        if failure is not None:
            return failure
        if params.get("db") != "pubmed" or params.get("retmode") != "xml":
            return Response(b"this fake only serves db=pubmed retmode=xml", 400)
        pmids = [pmid for pmid in params.get("id", "").split(",") if pmid]
        if not pmids:
            error = b"<eFetchResult><ERROR>Empty id list - nothing todo</ERROR></eFetchResult>"
            return Response(error, 400, media_type="text/xml")
        prolog = b'<?xml version="1.0" ?>\n'
        articles: list[bytes] = []
        for pmid in pmids:
            path = self.metapub_dir / f"{pmid}.xml"
            if not pmid.isdigit() or not path.is_file():
                continue
            match = _ARTICLE_SET.match(path.read_bytes())
            if match is None:
                continue
            prolog = match.group(1)
            articles.append(match.group(2).strip())
        body = prolog + b"<PubmedArticleSet>\n" + b"\n".join(articles) + b"\n</PubmedArticleSet>\n"
        return Response(body, 200, media_type="text/xml; charset=UTF-8")

    def _json_file(self, name: str) -> tuple[Any, Any]:
        data = json.loads((self.pubmed_dir / "fixtures" / "ncbi_eutils_json" / name).read_text())
        return data["header"], data["esearchresult"]

    def _load_searches(self) -> dict[str, dict[str, Any]]:
        _header, cancer = self._json_file("esearch.pubmed.json")
        searches: dict[str, dict[str, Any]] = {"cancer": cancer}
        for term, name in _BIOPYTHON_SEARCHES.items():
            searches[term] = _esearch_xml_as_json(self.pubmed_dir / "fixtures" / "biopython" / name)
        return searches

    def _search_corpus(self, term: str) -> dict[str, Any]:
        if self._corpus_words is None:
            self._corpus_words = {
                path.stem: _words_of(path) for path in sorted(self.metapub_dir.glob("*.xml"))
            }
        wanted = _WORD.findall(term.casefold())
        hits = sorted(
            (pmid for pmid, words in self._corpus_words.items() if all(w in words for w in wanted)),
            key=int,
            reverse=True,
        )
        return {
            "count": str(len(hits)),
            "retmax": str(len(hits)),
            "retstart": "0",
            "idlist": hits,
            "translationset": [],
            "querytranslation": " AND ".join(f'"{word}"[All Fields]' for word in wanted),
        }


def _words_of(path: Path) -> frozenset[str]:
    tree = etree.parse(str(path), _XML_PARSER)
    text = " ".join(
        "".join(str(text) for text in element.itertext())
        for element in tree.iter("ArticleTitle", "AbstractText")
    )
    return frozenset(_WORD.findall(text.casefold()))


def _esearch_xml_as_json(path: Path) -> dict[str, Any]:
    """An XML eSearchResult in the layout of retmode=json (lower-case keys, lists)."""
    root = etree.parse(str(path), _XML_PARSER).getroot()

    def texts(xpath: str) -> list[str]:
        return [element.text or "" for element in root.iterfind(xpath)]

    return {
        "count": root.findtext("Count"),
        "retmax": root.findtext("RetMax"),
        "retstart": root.findtext("RetStart"),
        "idlist": texts("IdList/Id"),
        "translationset": [
            {"from": item.findtext("From"), "to": item.findtext("To")}
            for item in root.iterfind("TranslationSet/Translation")
        ],
        "querytranslation": root.findtext("QueryTranslation"),
        "errorlist": {
            "phrasesnotfound": texts("ErrorList/PhraseNotFound"),
            "fieldsnotfound": texts("ErrorList/FieldNotFound"),
        },
        "warninglist": {
            "phrasesignored": texts("WarningList/PhraseIgnored"),
            "quotedphrasesnotfound": texts("WarningList/QuotedPhraseNotFound"),
            "outputmessages": texts("WarningList/OutputMessage"),
        },
    }
