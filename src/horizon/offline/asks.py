"""What the user asked, recognised from the words of their message.

Deterministic keyword rules, tried in a fixed order; the first that matches
wins. What the page can do with the ask is decided later (`plans`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

AskKind = Literal[
    "help",
    "compare",
    "validate",
    "search_reports",
    "article",
    "summarise_report",
    "template",
    "topics",
    "retrieval",
    "categories",
    "schema",
    "portfolio",
    "stream_suggestions",
    "list_streams",
    "stream_details",
    "search_pubmed",
    "other",
]


@dataclass(frozen=True)
class Ask:
    kind: AskKind
    text: str
    query: str = ""
    """Search words, or the research area of a template."""
    pmids: tuple[str, ...] = ()
    ids: tuple[int, ...] = ()
    """Stream or report numbers the message names."""


_PMID = re.compile(r"\bpmid\s*[:#]?\s*([a-z]{0,3}\d{1,9})\b|\b(syn\d{6})\b|\b(\d{7,9})\b", re.I)
_ID_AFTER = re.compile(r"\b(?:streams?|reports?)\b(.*)", re.I)
_SMALL_NUMBER = re.compile(r"(?<![\w.])(\d{1,6})(?!\w|\.\d)")

_HELP = re.compile(
    r"^\W*(help|hi|hello|hey|menu|options|start|\?+)\W*$"
    r"|what can (you|i) (do|ask)|how (can|do) you help|what do you do",
    re.I,
)
_RULES: tuple[tuple[AskKind, re.Pattern[str]], ...] = (
    ("compare", re.compile(r"\bcompar|\bversus\b|\bvs\.?\s|\bdifference between\b", re.I)),
    (
        "validate",
        re.compile(
            r"\bvalidat|\b(check|review|ready|complete)\b.*\b(stream|draft|form|setup|config\w*"
            r"|schema|queries|categories|this|it)\b|\b(stream|draft|form)\b.*\b(ready|complete)\b",
            re.I,
        ),
    ),
    (
        "search_reports",
        re.compile(r"\b(my|the|our|in|across|all|past)\s+reports\b|\breports?\s+for\b", re.I),
    ),
    ("article", re.compile(r"\bpmid\b|\bthis (article|paper|study|abstract)\b|\bsyn\d{6}", re.I)),
    ("summarise_report", re.compile(r"\bsummar|\boverview\b|\brecap\b|\btl;?dr\b", re.I)),
    ("template", re.compile(r"\btemplate|\bexample stream|\bdraft (a|the|my|this) stream", re.I)),
    ("topics", re.compile(r"\btopics?\b", re.I)),
    ("retrieval", re.compile(r"\bquer(y|ies)\b|\bretrieval\b|search strateg|\bboolean\b", re.I)),
    ("categories", re.compile(r"\bcategor|\bgroup(ing|s)?\b|\borgani[sz]e\b", re.I)),
    (
        "schema",
        re.compile(r"\bschema\b|\bsemantic\b|\bimprove\b|\brefine\b|\bentit(y|ies)\b", re.I),
    ),
    ("portfolio", re.compile(r"\bportfolio\b|\binsights?\b|\boverlaps?\b|\bgaps?\b", re.I)),
    (
        "stream_suggestions",
        re.compile(r"\b(suggest|recommend|ideas?|propose|new)\b.*\bstreams\b", re.I),
    ),
    (
        "list_streams",
        re.compile(r"\b(list|show|what|which|see|all)\b.*\bstreams\b|^my streams", re.I),
    ),
    ("stream_details", re.compile(r"\bstream\b", re.I)),
    (
        "search_pubmed",
        re.compile(
            r"\b(find|search|look\s*(for|up)|fetch|get me|show me)\b"
            r"|\b(articles|papers|studies|literature|publications)\s+(on|about|regarding)\b",
            re.I,
        ),
    ),
)

_SEARCH_LEAD = re.compile(
    r"^(?:(?:please|can|could|would|you|kindly|me|for|find|search|look|up|fetch|get|show|"
    r"give|some|any|recent|latest|pubmed|the|literature|articles?|papers?|studies|study|"
    r"publications?|research|on|about|regarding|related|to|in)\b[\s,:]*)+",
    re.I,
)
_SEARCH_TRAIL = re.compile(r"(?:\s+(?:on|in|from|using)\s+pubmed)?[\s.?!,;:]*$", re.I)
_REPORTS_QUERY = re.compile(
    r"\breports?\s+(?:for|about|on|mentioning|that mention|with)\s+(.+)$", re.I
)
_IN_REPORTS = re.compile(
    r"\b(?:in|across|from|through)?\s*(?:my|the|our|all|past)\s+reports\b", re.I
)
_AREA = re.compile(r"\b(?:for|on|about|covering)\s+(.+)$", re.I)


_MAX_QUERY = 300  # well inside the tools' input limits


def recognise(message: str) -> Ask:
    """The ask in `message`; "other" when no rule matches."""
    text = " ".join(message.split())
    pmids = _pmids(text)
    ids = _ids(text)
    if not text or _HELP.search(text):
        return Ask("help", text)
    for kind, pattern in _RULES:
        if pattern.search(text):
            return Ask(kind, text, _query(kind, text)[:_MAX_QUERY].strip(), pmids, ids)
    if pmids:
        return Ask("article", text, "", pmids, ids)
    if len(text.split()) <= 3:
        return Ask("help", text)
    return Ask("other", text)


def _pmids(text: str) -> tuple[str, ...]:
    found = (next(g for g in m.groups() if g) for m in _PMID.finditer(text))
    return tuple(dict.fromkeys(p.upper() for p in found))


def _ids(text: str) -> tuple[int, ...]:
    after = _ID_AFTER.search(text)
    if after is None:
        return ()
    return tuple(dict.fromkeys(int(n) for n in _SMALL_NUMBER.findall(after.group(1)) if int(n)))


def _query(kind: AskKind, text: str) -> str:
    if kind == "search_pubmed":
        return _search_words(text)
    if kind == "search_reports":
        match = _REPORTS_QUERY.search(text)
        if match:
            return _SEARCH_TRAIL.sub("", match.group(1)).strip(" \"'“”")
        return _search_words(_IN_REPORTS.sub(" ", text))
    if kind in ("template", "topics"):
        match = _AREA.search(text)
        return _SEARCH_TRAIL.sub("", match.group(1)).strip(" \"'“”") if match else ""
    return ""


def _search_words(text: str) -> str:
    """The topic of "find articles on X" and the like: X."""
    return _SEARCH_TRAIL.sub("", _SEARCH_LEAD.sub("", text.strip())).strip(" \"'“”")
