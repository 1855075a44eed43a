"""Recognising an intent by the words a message shares with each intent's phrasings.

A message becomes a set of *terms*: its words lower-cased and stemmed, synonyms
folded into one concept ("paper", "study", "publication" → "article"), small
words dropped, and a misspelt word corrected to the nearest known one
(rapidfuzz, only above a high similarity). Each intent's description and
examples become term sets the same way. A term weighs more the fewer intents
use it, so "stream" says little and "gap" says much.

An intent's score is the best cosine, over its phrasings, between the message's
known terms and the phrasing's terms; words no intent knows (a search topic, a
name) neither help nor dilute. The page's main tasks get a small lead, and the
active tab's task a little more. Everything here is a pure function of the
message and the page: the same ask always gets the same reading.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz, process

from .intents import INTENTS, MAIN_TASKS, TAB_TASKS, IntentKind


def _split(words: str) -> tuple[str, ...]:
    return tuple(words.split())


PAGE_LEAD = 0.12
"""Added to the score of the page's main tasks."""
TAB_LEAD = 0.25
"""Added, on the stream edit page, to the active tab's task."""
SURE = 0.42
"""Below this best score the ask is not understood: the page's tasks are offered."""
_UNKNOWN_WEIGHT = 0.5
"""A word no intent knows (a topic, a name) counts this much against a match."""
_LIGHT = frozenset(_split("write make tell give help put build add use take bring want"))
_LIGHT_WEIGHT = 0.4
"""Verbs that go with any ask: they weigh too little to decide one alone."""
_FUZZY_CUTOFF = 86.0
_FUZZY_MIN_LENGTH = 5

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_PMID = re.compile(r"\bpmid\b|\bsyn\d{6}\b|\b\d{7,9}\b", re.I)
_STREAM_NUMBER = re.compile(r"\bstreams?\s+#?\d", re.I)

_STOP = frozenset(
    _split(
        """a an the and or but if of to in on at by for with from into about as is are was
        were be been being am do does did doing i me my mine we our us you your it its this
        that these those there here then than so too very can could would should will shall
        may might must please kindly just also really some any up out over again now let lets
        let's i'm i'd i've you're it's what's that's there's how's who what which when where
        why how whom whose get got give go going want wanted need like ok okay hey hi hello
        thanks thank thing things something anything everything nothing one"""
    )
)
# Kept although they look small: they carry the ask.
_KEEP = frozenset({"new", "all", "other", "else", "first", "two", "more"})

_CONCEPTS: dict[str, tuple[str, ...]] = {
    "article": _split(
        "article paper study studies publication literature research abstract abstracts "
        "work works evidence trial trials result results finding findings"
    ),
    "summary": _split(
        "summary summarise summarize summarised summarized gist recap overview tldr tl;dr digest "
        "highlight highlights takeaway takeaways rundown brief briefing nutshell short "
        "stand stands important main key point points essence"
    ),
    "find": _split("find search look lookup fetch seek hunt locate retrieve dig browse"),
    "published": _split("published publish written latest recent recently lately"),
    "stream": _split(
        "stream streams feed feeds monitor monitoring track tracking tracker follow watch eye"
    ),
    "retrieval": _split(
        "query queries retrieval boolean keyword keywords terms term strategy catch fetched"
    ),
    "category": _split(
        "category categories group groups grouping bucket buckets section sections organise "
        "organize classify sort cluster"
    ),
    "topic": _split("topic topics theme themes subject subjects subtopic subtopics area areas"),
    "template": _split(
        "template scaffold starter prefill fill boilerplate skeleton create set start starting"
    ),
    "check": _split(
        "validate validation check verify review ready complete missing forget forgot wrong "
        "problem problems issue issues mistake mistakes sanity right correct save good"
    ),
    "list": _split("list listing show all many which have"),
    "portfolio": _split(
        "portfolio insight insights overlap overlaps gap gaps coverage cover redundant "
        "redundancy duplicate twice whole field blind spot spots"
    ),
    "suggest": _split("suggest suggestion suggestions recommend recommendation idea ideas propose"),
    "compare": _split("compare comparison versus vs difference differences differ contrast side"),
    "explain": _split("explain explanation mean means describe tell understand plain simple"),
    "chart": _split(
        "chart charts plot graph visualise visualize visualisation visualization histogram "
        "distribution distributed breakdown draw diagram"
    ),
    "time": _split("time trend trends growing growth changed change over year years old timeline"),
    "scope": _split("scope schema semantic entity entities definition description sharpen refine"),
    "report": _split("report reports week weekly issue edition"),
    "related": _split("related similar like relevant alike"),
    "delete": _split("delete remove erase discard trash destroy wipe rid bin throw away"),
    "setting": _split("setting settings configured configuration config setup"),
}


def _stem(word: str) -> str:
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


@cache
def _concept_of() -> dict[str, str]:
    table: dict[str, str] = {}
    for concept, words in _CONCEPTS.items():
        for word in words:
            table.setdefault(word, concept)
            table.setdefault(_stem(word), concept)
    return table


_SUBJECT = re.compile(r"\[[^\]]*\]")
_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"\b{pattern}\b", re.I), concept)
    for pattern, concept in (
        (r"like (?:this|that|it|these|those)", " similar "),
        (r"keep(?:ing)? (?:an )?eye on", " monitor "),
        (r"blind spots?", " gap "),
        (r"good to go", " ready "),
        (r"side by side", " compare "),
        (r"over time", " trend "),
    )
)


def _plain_terms(text: str) -> list[str]:
    concepts = _concept_of()
    text = _SUBJECT.sub(" ", text)
    for pattern, concept in _PHRASES:
        text = pattern.sub(concept, text)
    found: list[str] = []
    if _PMID.search(text):
        found.append("pmid")
    if _STREAM_NUMBER.search(text):
        found.append("stream_number")
    for word in _WORD.findall(text.lower().replace("’", "'")):
        if word.isdigit():
            continue
        if word in _STOP and word not in _KEEP:
            continue
        found.append(concepts.get(word) or concepts.get(_stem(word)) or _stem(word))
    return found


@dataclass(frozen=True)
class _Model:
    phrasings: tuple[tuple[IntentKind, frozenset[str]], ...]
    weights: dict[str, float]
    vocabulary: tuple[str, ...]


@cache
def _model() -> _Model:
    phrasings = tuple(
        (intent.kind, frozenset(_plain_terms(text)))
        for intent in INTENTS
        for text in (intent.description, *intent.examples)
    )
    users: dict[str, set[IntentKind]] = {}
    for kind, terms in phrasings:
        for term in terms:
            users.setdefault(term, set()).add(kind)
    count = len(INTENTS)
    weights = {
        t: _LIGHT_WEIGHT if t in _LIGHT else math.log(1 + count / len(kinds))
        for t, kinds in users.items()
    }
    spellings = {w for w in _concept_of()} | {t for t in users if t.isalpha()}
    return _Model(phrasings, weights, tuple(sorted(spellings)))


def terms(text: str) -> frozenset[str]:
    """The terms of `text`: known terms, with misspelt words corrected where one is close."""
    model = _model()
    concepts = _concept_of()
    found: set[str] = set()
    for term in _plain_terms(text):
        if term not in model.weights and len(term) >= _FUZZY_MIN_LENGTH:
            match = process.extractOne(
                term, model.vocabulary, scorer=fuzz.ratio, score_cutoff=_FUZZY_CUTOFF
            )
            if match is not None:
                term = concepts.get(match[0], match[0])
        found.add(term)
    return frozenset(found)


def _cosine(message: frozenset[str], phrasing: frozenset[str], weights: dict[str, float]) -> float:
    known = [t for t in message if t in weights]
    if not known or not phrasing:
        return 0.0
    shared = sum(weights[t] ** 2 for t in known if t in phrasing)
    unknown = (len(message) - len(known)) * _UNKNOWN_WEIGHT**2
    mine = sum(weights[t] ** 2 for t in known) + unknown
    norm = math.sqrt(mine * sum(weights[t] ** 2 for t in phrasing))
    return shared / norm


@dataclass(frozen=True)
class Reading:
    """The intents a message may mean, best first, with their scores."""

    ranked: tuple[tuple[IntentKind, float], ...]

    @property
    def best(self) -> IntentKind | None:
        """The best intent, or None when no intent scores `SURE` or more."""
        if not self.ranked or self.ranked[0][1] < SURE:
            return None
        return self.ranked[0][0]


def read(message: str, page: str = "", tab: str = "") -> Reading:
    """Every intent's score for `message` on `page` (and its active `tab`)."""
    model = _model()
    words = terms(message)
    scores: dict[IntentKind, float] = {}
    for kind, phrasing in model.phrasings:
        scores[kind] = max(scores.get(kind, 0.0), _cosine(words, phrasing, model.weights))
    main = MAIN_TASKS.get(page, ())
    tab_task = TAB_TASKS.get(tab) if page == "edit_stream" else None
    for kind, score in scores.items():
        if score > 0:
            scores[kind] = score + (PAGE_LEAD if kind in main else 0.0)
            scores[kind] += TAB_LEAD if kind == tab_task else 0.0
    order = {kind: n for n, kind in enumerate(_ordered(main))}
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], order.get(kv[0], len(order))))
    return Reading(tuple((k, round(v, 6)) for k, v in ranked))


def _ordered(main: Iterable[IntentKind]) -> list[IntentKind]:
    return [*main, *(i.kind for i in INTENTS if i.kind not in main)]
