"""What the user asked, read from the words of their message on its page.

Which intent: `scoring` (word overlap with each intent's phrasings in
`intents`, leaning towards the page's main tasks). What it is about: the
search words, research area, PMIDs and numbers picked out here. What the page
can do with the ask is decided later (`plans`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .intents import IntentKind
from .scoring import read

AskKind = IntentKind | Literal["other", "unsupported"]
"""An intent, "unsupported" (a request for something Horizon cannot do: sending, exporting,
writing a poem...), or "other": no intent fits well enough to act on."""


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

_FILLER = (
    r"please|can|could|would|you|kindly|me|for|find|search|look|up|fetch|get|show|give|"
    r"some|any|anything|new|recent|recently|latest|lately|pubmed|the|a|an|literature|"
    r"articles?|papers?|studies|study|publications?|research|on|about|regarding|concerning|"
    r"covering|related|to|in|into|what|whats|what's|has|have|been|is|are|there|published|"
    r"written|i|need|want|out|of|this|year|week|month|else|more|other|similar|like"
)
_SEARCH_LEAD = re.compile(rf"^(?:(?:{_FILLER})\b[\s,:?]*)+", re.I)
_FILLER_WORD = re.compile(rf"^(?:{_FILLER})$", re.I)
_TOPIC_AFTER = re.compile(
    r"\b(?:on|about|regarding|concerning|covering|into|for|in|monitor|track|follow|watch"
    r"|keep an eye on)\s+(.+)$",
    re.I,
)
_TOPIC_TRAIL = re.compile(
    r"(?:\s+(?:lately|recently|this (?:year|month|week)|these days|please|for me))+[\s.?!,;:]*$",
    re.I,
)
_SEARCH_TRAIL = re.compile(r"(?:\s+(?:on|in|from|using)\s+pubmed)?[\s.?!,;:]*$", re.I)
_REPORTS_QUERY = re.compile(
    r"\breports?\s+(?:for|about|on|mentioning|that mention|with)\s+(.+)$", re.I
)
_IN_REPORTS = re.compile(
    r"\b(?:in|across|from|through)?\s*(?:my|the|our|all|past)\s+reports\b", re.I
)


_MAX_QUERY = 300  # well inside the tools' input limits

# Requests no page of Horizon can do, by their verb or what they ask for: answered with a
# plain "I can't", never read as the nearest task ("email me this report" is no summary).
_UNSUPPORTED = re.compile(
    r"\b(?:e-?mail|send|share|forward|export|download|print|translate|rename|schedule"
    r"|book|buy|order|pay|tweet|upload|invite|subscribe|unsubscribe|archive|restore|undelete"
    r"|sonnet|poem|haiku|limerick|joke|song|essay|story|recipe|weather)\b",
    re.I,
)
_POLITE = re.compile(
    r"^(?:(?:please|kindly|hey|hi|ok|okay|so|now|(?:can|could|would|will) you|i want you to"
    r"|i'd like you to|i would like you to)\b[\s,]*)+",
    re.I,
)
_PERSON = {"me": "you", "my": "your", "i": "you", "mine": "yours", "myself": "yourself"}


def recognise(message: str, page: str = "", tab: str = "") -> Ask:
    """The ask in `message` on `page` (and its active `tab`); "other" when no intent fits."""
    text = " ".join(message.split())
    pmids = _pmids(text)
    ids = _ids(text)
    if not text or _HELP.search(text):
        return Ask("help", text)
    if _UNSUPPORTED.search(text):
        return Ask("unsupported", text, what_was_asked(text))
    kind = read(text, page, tab).best
    if kind is not None:
        return Ask(kind, text, _query(kind, text)[:_MAX_QUERY].strip(), pmids, ids)
    if pmids:
        return Ask("article", text, "", pmids, ids)
    if len(text.split()) <= 2:
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
        return subject_of(text)
    return ""


# The words around a subject when someone asks for a draft: "a starting point for a stream
# on X" is about X.
_FRAME = re.compile(
    r"^(?:(?:a|an|the|my|our|new|some|good|basic|quick|first|whole|full|complete)\s+)*"
    r"(?:starting\s+points?|starters?|templates?|drafts?|skeletons?|outlines?|research\s+streams?"
    r"|streams?|feeds?|monitors?|set\s*ups?|forms?|ones?|something|topics?|subtopics?"
    r"|themes?)\b[\s,:]*",
    re.I,
)


def subject_of(text: str) -> str:
    """The research area a request for a draft names: what follows "on", "about", "for"...
    with the frame around it ("a starting point for a stream on") left out; "" for none."""
    match = _TOPIC_AFTER.search(text)
    area = _SEARCH_LEAD.sub("", match.group(1)) if match else ""
    for _ in range(4):  # a frame within a frame: "a template for a stream on X"
        framed = _FRAME.match(area)
        if framed is None:
            break
        rest = area[framed.end() :]
        inner = _TOPIC_AFTER.match(rest) or _TOPIC_AFTER.search(rest)
        area = _SEARCH_LEAD.sub("", inner.group(1)) if inner else rest
    return _TOPIC_TRAIL.sub("", _SEARCH_TRAIL.sub("", area)).strip(" \"'“”")


def what_was_asked(text: str) -> str:
    """The request, said back: "could you email me this report?" → "email you this report"."""
    plain = _TOPIC_TRAIL.sub("", _POLITE.sub("", text.strip())).rstrip(" .?!,")
    words = [_PERSON.get(w.lower(), w) for w in plain.split()]
    if words:
        words[0] = words[0][:1].lower() + words[0][1:]
    return " ".join(words)


def _search_words(text: str) -> str:
    """The topic of "find articles on X", "what's new in X", "X papers?" and the like: X."""
    text = _TOPIC_TRAIL.sub("", _SEARCH_TRAIL.sub("", text.strip()))
    after = _TOPIC_AFTER.search(text)
    if after is not None:
        topic = _SEARCH_LEAD.sub("", after.group(1))
    else:
        topic = " ".join(w for w in text.split() if not _FILLER_WORD.match(w.strip("?!.,;:")))
    return _SEARCH_TRAIL.sub("", topic).strip(" \"'“”")
