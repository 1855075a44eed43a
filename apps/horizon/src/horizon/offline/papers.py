"""Reading a paper from a PDF the user attached: its title, its abstract, a short summary.

pagechat hands the model each PDF as a `FilePart` with the text pypdf extracted
(`pagechat.attachments.content`). Without a language model, the paper is read by
layout habits every journal shares: the title is the PDF's metadata title when it
has a real one, else the first substantial line; the abstract is the text after an
"Abstract" heading up to the next heading, else the first paragraph after the title.
Everything here is a pure function of the file: the same PDF always reads the same.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from pagechat.models import FilePart

SUMMARY_SENTENCES = 3
"""Sentences of the abstract a summary keeps."""

_MIN_TITLE_CHARS = 15
_MAX_TITLE_CHARS = 300
# "Abstract" alone, or followed by punctuation or its first sentence; "Summary" alone or
# with punctuation (a line that begins "Summary of ..." is prose).
_ABSTRACT = re.compile(
    r"^\s*(?:(?:a ?b ?s ?t ?r ?a ?c ?t|summary)\s*(?:[:.—–-]\s*|$)|abstract\s+(?=(?-i:[A-Z])))",
    re.I,
)
# Headings that end an abstract: the paper's body, keywords, or a numbered section.
_AFTER_ABSTRACT = re.compile(
    r"^\s*(?:(?:\d+\.?|[IVX]+\.)\s+(?-i:[A-Z])|(?:introduction|background and aims?|keywords?|"
    r"key words|main text|references|acknowledg(?:e)?ments?)\b)",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(“\"])")
_SPACE = re.compile(r"\s+")
# Metadata titles that are a file name or a tool's placeholder, not the paper's title.
_PLACEHOLDER = re.compile(r"^(?:untitled|microsoft word|document\d*|.*\.(?:docx?|tex|pdf))\b", re.I)
# Lines at the top of a page that are not the title: a journal banner, a DOI, a licence.
_NOT_TITLE = re.compile(
    r"doi\b|https?://|www\.|©|copyright|received|accepted|published|volume|vol\.|issn|"
    r"journal|^\s*page\s+\d|^\s*\d+\s*$",
    re.I,
)


@dataclass(frozen=True, kw_only=True)
class Paper:
    """A PDF the user attached, as read: its file name, title and abstract ("" when not
    found), and whether it had any text at all (a scan has none)."""

    name: str
    title: str
    abstract: str
    readable: bool


def papers_in(files: Iterable[FilePart]) -> list[Paper]:
    """Every PDF among the files, read (other kinds are not papers)."""
    return [read_paper(part=f) for f in files if f.kind == "pdf"]


def read_paper(*, part: FilePart) -> Paper:
    """The title and abstract of one PDF part."""
    text = part.text.replace("\r", "")
    if not text.strip():
        return Paper(name=part.name, title="", abstract="", readable=False)
    lines = [_SPACE.sub(" ", line).strip() for line in text.splitlines()]
    title = metadata_title(part.data) or _first_title_line(lines)
    abstract = _after_heading(lines) or _first_paragraph(lines, title)
    return Paper(name=part.name, title=title, abstract=abstract, readable=True)


def metadata_title(data: bytes) -> str:
    """The title the PDF's metadata gives, when it looks like a paper's title; else ""."""
    if not data:
        return ""
    try:
        info = PdfReader(io.BytesIO(data)).metadata
    except (PyPdfError, ValueError, OSError):
        return ""
    title = _SPACE.sub(" ", str(info.title or "")).strip() if info is not None else ""
    if len(title) < _MIN_TITLE_CHARS or _PLACEHOLDER.match(title):
        return ""
    return title[:_MAX_TITLE_CHARS]


def _first_title_line(lines: list[str]) -> str:
    """The first line before the abstract that can be a title (see `_can_be_title`), with
    the line after it when the title wraps onto it."""
    for number, line in enumerate(lines):
        if _ABSTRACT.match(line):
            return ""
        if not _can_be_title(line):
            continue
        title = line
        following = lines[number + 1] if number + 1 < len(lines) else ""
        if not title.endswith(".") and _continues_title(title, following):
            title = _joined([title, following])
        return title[:_MAX_TITLE_CHARS].rstrip(" .")
    return ""


def _continues_title(title: str, following: str) -> bool:
    """Whether `following` is the rest of a title wrapped after `title`: it goes on in
    lower case, or the title line is long and the next one is short and has none of what
    marks the authors' line (commas, affiliation digits, an e-mail or a star)."""
    if not following or _ABSTRACT.match(following) or len(following.split()) > 12:
        return False
    if following[:1].islower():
        return True
    authors = re.search(r"[,\d@*†]", following) is not None
    return len(title) > 50 and not authors


def _can_be_title(line: str) -> bool:
    """Four words or more, and not a journal banner, a DOI or licence line, or a list of
    authors (short names between commas)."""
    if len(line) < _MIN_TITLE_CHARS or len(line.split()) < 4 or _NOT_TITLE.search(line):
        return False
    commas = line.count(",")
    return commas < 2 or len(line) / commas > 25


def _after_heading(lines: list[str]) -> str:
    """The text after an "Abstract" heading (or "Summary"), up to the next heading."""
    for number, line in enumerate(lines):
        match = _ABSTRACT.match(line)
        if match is None:
            continue
        body = [line[match.end() :]]
        for following in lines[number + 1 :]:
            if _AFTER_ABSTRACT.match(following):
                break
            body.append(following)
        text = _joined(body)
        if text:
            return text
    return ""


def _first_paragraph(lines: list[str], title: str) -> str:
    """The first prose after the title, up to a gap or the next heading: papers without
    an "Abstract" heading open with their abstract (pypdf rarely keeps blank lines, so
    the heading that follows usually ends it)."""
    start = next((n + 1 for n, line in enumerate(lines) if title and line and line in title), 0)
    body: list[str] = []
    for line in lines[start:]:
        if not body and not _is_prose(line):
            continue
        if not line or _AFTER_ABSTRACT.match(line):
            break
        body.append(line)
    text = _joined(body)
    return text if len(sentences(text)) >= 2 else ""


def _is_prose(line: str) -> bool:
    """A line of running text: six words or more, not a list of authors."""
    commas = line.count(",")
    return len(line.split()) >= 6 and (commas < 2 or len(line) / commas > 25)


def _joined(lines: list[str]) -> str:
    """Lines as one text; a line ending in a hyphen ("CRISPR-" / "Cas9") runs on."""
    text = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        text = f"{text}{line}" if text.endswith("-") or not text else f"{text} {line}"
    return text


def sentences(text: str) -> list[str]:
    """The sentences of `text`, split after a full stop, question or exclamation mark."""
    text = _SPACE.sub(" ", text).strip()
    return [s for s in _SENTENCE_END.split(text) if s] if text else []


def summary(paper: Paper) -> str:
    """What the paper says, plainly: its title, then the first sentences of its abstract."""
    if not paper.readable:
        return (
            f"“{paper.name}” has no text I can read (it may be scanned pages), so I cannot "
            "summarise it. A PDF with selectable text, or the paper's PMID, would let me."
        )
    title = f"**{paper.title}**" if paper.title else f"“{paper.name}” (I found no title)"
    lead = sentences(paper.abstract)[:SUMMARY_SENTENCES]
    if not lead:
        return f"The paper is {title}. I found no abstract in its text, so I cannot say more."
    return f"The paper is {title}. From its abstract: {' '.join(lead)}"
