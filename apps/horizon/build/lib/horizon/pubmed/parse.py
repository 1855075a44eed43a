"""A streaming parser for PubMed/MEDLINE XML.

Reads `PubmedArticleSet` (efetch output, NLM annual baseline and update files) and
the older `MedlineCitationSet`, from a path (`.xml` or `.xml.gz`), bytes or a binary
file object; gzip is recognised by its magic bytes, not by the name.

Each top-level record is turned into an `ArticleRecord` as soon as it has been read
and is then cleared and detached, so a 30,000-record baseline file is parsed in
bounded memory. Entities are not resolved, DTDs are not loaded and the network is
never touched: a hostile file cannot read local files (XXE) or blow up (billion
laughs).

A record without a usable PMID is skipped with a warning; a file that is not
well-formed XML, or not PubMed XML at all, raises `PubmedParseError` — after the
records before the damage have been yielded.
"""

from __future__ import annotations

import gzip
import io
import logging
import os
import re
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeAlias, cast

from lxml import etree

from .records import ArticleRecord, DeletedCitation

__all__ = [
    "ParseResult",
    "PubmedItem",
    "PubmedParseError",
    "PubmedSource",
    "iter_pubmed_xml",
    "parse_pubmed_xml",
    "read_pubmed_xml",
]

logger = logging.getLogger(__name__)

PubmedSource: TypeAlias = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes]
"""A path (a `str` is always a path, never XML text), the XML itself, or a binary file."""

PubmedItem: TypeAlias = ArticleRecord | DeletedCitation

_ROOTS = frozenset({"PubmedArticleSet", "MedlineCitationSet"})
_ITEM_TAGS = ("PubmedArticle", "PubmedBookArticle", "MedlineCitation", "DeleteCitation")
_GZIP_MAGIC = b"\x1f\x8b"
_WHITESPACE = re.compile(r"\s+")
_YEAR = re.compile(r"(?<!\d)([12]\d{3})(?!\d)")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_NAME_PART = re.compile(r"[^\W\d_]+")


class PubmedParseError(ValueError):
    """The input as a whole is unusable: not XML, truncated, or not a PubMed record set."""


@dataclass(frozen=True, slots=True)
class ParseResult:
    """Everything in one input, read eagerly (see `read_pubmed_xml`)."""

    records: tuple[ArticleRecord, ...]
    deleted_pmids: tuple[str, ...]
    skipped: int


class _Malformed(Exception):
    pass


def iter_pubmed_xml(
    source: PubmedSource,
    *,
    source_name: str | None = None,
    on_skip: Callable[[str], None] | None = None,
) -> Iterator[PubmedItem]:
    """Yield records and deletions in document order.

    Order matters to an importer: a later entry for the same PMID (in this input or a
    later update file) supersedes an earlier one. `source_name` labels the records;
    it defaults to the file name for paths and "pubmed" otherwise. `on_skip` receives
    the reason for each malformed record, which is also logged as a warning.
    """
    with ExitStack() as stack:
        stream, name = _open(source, stack)
        if source_name is not None:
            name = source_name
        yield from _iter_items(stream, name, on_skip)


def parse_pubmed_xml(
    source: PubmedSource,
    *,
    source_name: str | None = None,
    on_delete: Callable[[str], None] | None = None,
    on_skip: Callable[[str], None] | None = None,
) -> Iterator[ArticleRecord]:
    """Yield the article records; each `DeleteCitation` PMID goes to `on_delete`."""
    for item in iter_pubmed_xml(source, source_name=source_name, on_skip=on_skip):
        if isinstance(item, ArticleRecord):
            yield item
        elif on_delete is not None:
            on_delete(item.pmid)


def read_pubmed_xml(source: PubmedSource, *, source_name: str | None = None) -> ParseResult:
    """Parse a whole input into memory: for efetch responses and tests, not baselines."""
    records: list[ArticleRecord] = []
    deleted: list[str] = []
    skipped: list[str] = []
    for item in iter_pubmed_xml(source, source_name=source_name, on_skip=skipped.append):
        if isinstance(item, ArticleRecord):
            records.append(item)
        else:
            deleted.append(item.pmid)
    return ParseResult(tuple(records), tuple(deleted), len(skipped))


def _open(source: PubmedSource, stack: ExitStack) -> tuple[IO[bytes], str]:
    stream: IO[bytes]
    if isinstance(source, bytes | bytearray | memoryview):
        stream, name = io.BytesIO(bytes(source)), "pubmed"
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        stream, name = stack.enter_context(path.open("rb")), path.name
    else:
        stream, name = source, "pubmed"
    head, stream = _peek(stream, len(_GZIP_MAGIC))
    if head == _GZIP_MAGIC:
        unpacked = gzip.GzipFile(fileobj=stream, mode="rb")
        stack.callback(unpacked.close)
        stream = cast(IO[bytes], unpacked)
    return stream, name


def _peek(stream: IO[bytes], size: int) -> tuple[bytes, IO[bytes]]:
    """The first bytes of `stream`, and a stream that still starts with them."""
    peek = getattr(stream, "peek", None)
    if callable(peek):
        head = peek(size)
        if isinstance(head, bytes) and len(head) >= size:
            return head[:size], stream
    head = stream.read(size)
    if stream.seekable():
        stream.seek(-len(head), io.SEEK_CUR)
        return head, stream
    return head, cast(IO[bytes], io.BufferedReader(_Prefixed(head, stream)))


class _Prefixed(io.RawIOBase):
    """Bytes already read from an unseekable stream, followed by the rest of it."""

    def __init__(self, prefix: bytes, rest: IO[bytes]) -> None:
        self._prefix = prefix
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._prefix:
            size = min(len(view), len(self._prefix))
            view[:size] = self._prefix[:size]
            self._prefix = self._prefix[size:]
            return size
        data = self._rest.read(len(view))
        view[: len(data)] = data
        return len(data)


def _iter_items(
    stream: IO[bytes], name: str, on_skip: Callable[[str], None] | None
) -> Iterator[PubmedItem]:
    context = etree.iterparse(
        stream,
        events=("end",),
        tag=_ITEM_TAGS,
        resolve_entities=False,
        load_dtd=False,
        no_network=True,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    position = 0
    root_checked = False
    try:
        for _event, element in context:
            parent = element.getparent()
            if parent is None or parent.getparent() is not None:
                # A MedlineCitation inside a PubmedArticle: its article handles it.
                continue
            if not root_checked:
                _check_root(parent.tag, name)
                root_checked = True
            position += 1
            try:
                yield from _items_of(element, name)
            except _Malformed as err:
                reason = f"record {position} in {name}: {err}"
                logger.warning("skipping malformed PubMed record: %s", reason)
                if on_skip is not None:
                    on_skip(reason)
            element.clear(keep_tail=False)
            while element.getprevious() is not None:
                del parent[0]
    except etree.XMLSyntaxError as err:
        raise PubmedParseError(f"{name}: not well-formed XML: {err}") from err
    except (OSError, EOFError, zlib.error) as err:
        raise PubmedParseError(f"{name}: cannot read: {err}") from err
    if not root_checked:
        _check_root(context.root.tag if context.root is not None else None, name)


def _check_root(tag: object, name: str) -> None:
    if tag not in _ROOTS:
        raise PubmedParseError(f"{name}: root element {tag!r} is not a PubMed record set")


def _items_of(element: etree._Element, name: str) -> Iterator[PubmedItem]:
    if element.tag == "DeleteCitation":
        for pmid in element.iterfind("PMID"):
            text = _text(pmid)
            if text.isdigit():
                yield DeletedCitation(pmid=text, source=name)
        return
    if element.tag == "PubmedBookArticle":
        logger.info("ignoring a PubMed book record in %s: books are not supported", name)
        return
    if element.tag == "PubmedArticle":
        citation = element.find("MedlineCitation")
        if citation is None:
            raise _Malformed("PubmedArticle without MedlineCitation")
        yield _record(citation, element.find("PubmedData"), name)
    else:
        yield _record(element, None, name)


def _record(
    citation: etree._Element, pubmed_data: etree._Element | None, name: str
) -> ArticleRecord:
    pmid = _text(citation.find("PMID"))
    if not pmid.isdigit():
        raise _Malformed(f"missing or invalid PMID {pmid!r}")
    article = citation.find("Article")
    if article is None:
        raise _Malformed(f"PMID {pmid} has no Article")
    return ArticleRecord(
        pmid=pmid,
        # Some non-English articles have an empty ArticleTitle and only the original one.
        title=_text(article.find("ArticleTitle")) or _text(article.find("VernacularTitle")),
        abstract=_abstract(article),
        authors=_authors(article),
        journal=(
            _text(article.find("Journal/Title"))
            or _text(article.find("Journal/ISOAbbreviation"))
            or _text(citation.find("MedlineJournalInfo/MedlineTA"))
        ),
        year=_year(article),
        doi=_doi(article, pubmed_data),
        mesh_terms=tuple(
            term
            for term in map(_text, citation.iterfind("MeshHeadingList/MeshHeading/DescriptorName"))
            if term
        ),
        source=name,
    )


def _text(element: etree._Element | None) -> str:
    """The element's text with inline markup (<i>, <sup>, MathML) flattened away."""
    if element is None:
        return ""
    parts: list[str] = []
    _gather(element, parts)
    return _WHITESPACE.sub(" ", "".join(parts)).strip()


def _gather(element: etree._Element, parts: list[str]) -> None:
    if element.text:
        parts.append(element.text)
    for child in element:
        # Unresolved entity references are dropped, but the text after them is kept.
        if isinstance(child.tag, str):
            _gather(child, parts)
        if child.tail:
            parts.append(child.tail)


def _abstract(article: etree._Element) -> str:
    paragraphs: list[str] = []
    for section in article.iterfind("Abstract/AbstractText"):
        text = _text(section)
        if not text:
            continue
        label = (section.get("Label") or "").strip()
        # NLM marks sections it could not classify "UNLABELLED"; that says nothing.
        if label and label.upper() != "UNLABELLED":
            paragraphs.append(f"{label}: {text}")
        else:
            paragraphs.append(text)
    return "\n\n".join(paragraphs)


def _authors(article: etree._Element) -> tuple[str, ...]:
    names: list[str] = []
    for author in article.iterfind("AuthorList/Author"):
        # ValidYN="N" entries record a misspelt name that the list also has corrected.
        if author.get("ValidYN") == "N":
            continue
        collective = _text(author.find("CollectiveName"))
        if collective:
            names.append(collective)
            continue
        last = _text(author.find("LastName"))
        if not last:
            continue
        initials = _text(author.find("Initials")) or _initials(_text(author.find("ForeName")))
        names.append(f"{last} {initials}" if initials else last)
    return tuple(names)


def _initials(fore_name: str) -> str:
    return "".join(part[0].upper() for part in _NAME_PART.findall(fore_name))


def _year(article: etree._Element) -> int | None:
    pub_date = article.find("Journal/JournalIssue/PubDate")
    candidates: list[str | None] = []
    if pub_date is not None:
        candidates += [pub_date.findtext("Year"), pub_date.findtext("MedlineDate")]
    candidates += [date.findtext("Year") for date in article.iterfind("ArticleDate")]
    for candidate in candidates:
        match = _YEAR.search(candidate or "")
        if match:
            return int(match.group(1))
    return None


def _doi(article: etree._Element, pubmed_data: etree._Element | None) -> str | None:
    candidates = [
        location
        for location in article.iterfind("ELocationID")
        if location.get("EIdType") == "doi" and location.get("ValidYN") != "N"
    ]
    if pubmed_data is not None:
        # Only the article's own id list: ReferenceList entries carry other papers' DOIs.
        candidates += [
            article_id
            for article_id in pubmed_data.iterfind("ArticleIdList/ArticleId")
            if article_id.get("IdType") == "doi"
        ]
    for candidate in candidates:
        doi = _DOI_PREFIX.sub("", _text(candidate))
        if doi.startswith("10."):
            return doi
    return None
