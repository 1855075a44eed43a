"""Drafting stream settings without a language model: key phrases, and rules.

Everything is a pure function of the stream as the page shows it, so the same
page always gets the same proposal. Topics come from the phrases of the name and
purpose; entities from the words in them that name a disease, drug, method...;
queries and categories from the topics; validation from plain rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..page_state import Pair, StreamState


@dataclass(frozen=True)
class Area:
    """A research area Horizon's sample corpus covers; drafts and suggestions use them."""

    name: str
    words: tuple[str, ...]
    topics: tuple[str, ...]


AREAS = (
    Area(
        "Oncology",
        ("cancer", "tumour", "tumor", "oncolog", "carcinoma", "melanoma", "glioblastoma"),
        ("Immune checkpoint inhibitors", "PARP inhibitors", "Circulating tumour DNA monitoring"),
    ),
    Area(
        "Immunology",
        ("immun", "arthritis", "lupus", "autoimmun", "bowel disease", "asthma"),
        ("JAK inhibitors", "Regulatory T cell therapy", "Interleukin-6 blockade"),
    ),
    Area(
        "Cardiology",
        ("heart", "cardi", "atrial", "hypertension", "myocard", "aortic"),
        ("SGLT2 inhibitors", "Catheter ablation", "Transcatheter valve replacement"),
    ),
    Area(
        "Gene editing",
        ("crispr", "gene edit", "base edit", "prime edit", "gene therap"),
        ("Base editing", "Prime editing", "Off-target editing"),
    ),
    Area(
        "Infectious disease",
        ("infect", "vaccin", "virus", "viral", "hiv", "tubercul", "malaria", "covid", "sepsis"),
        ("mRNA vaccination", "Antimicrobial resistance", "Rapid molecular diagnostics"),
    ),
    Area(
        "Neuroscience",
        ("neuro", "brain", "alzheimer", "parkinson", "epilep", "sclerosis", "depress"),
        ("Anti-amyloid antibodies", "Deep brain stimulation", "Gut microbiome modulation"),
    ),
)

_SPLIT = re.compile(
    r"[,;:()/]|\.\s|\.$|\s(?:and|or|for|in|of|on|with|within|among|versus|vs\.?|to|into"
    r"|from|by|about|across|including|such as|e\.g\.)\s",
    re.I,
)
_FILLER_WORDS = (
    "a an the all any this that these those new latest recent emerging current ongoing "
    "track tracking monitor monitoring follow following follows keep up date watch watching "
    "advances advance developments development research studies study literature evidence "
    "findings publications papers articles updates update news progress work stream streams "
    "horizon how what which why i we our my their its effect effects impact role use treated "
    "patients people is are was were be been there known"
)
_FILLER = frozenset(_FILLER_WORDS.split())
_CONNECTOR_WORDS = (
    "a an the and or for in of on with within among versus vs to into from by about across "
    "including such as"
)
_CONNECTORS = frozenset(_CONNECTOR_WORDS.split())
_DISEASE = re.compile(
    r"(cancers?|tumou?rs?|carcinomas?|diseases?|disorders?|syndromes?|infections?|failure|"
    r"diabetes|fibrosis|arthritis|asthma|sclerosis|dystroph\w*|an(a)?emia|leuk(a)?emia|"
    r"lymphomas?|melanomas?|glioblastomas?|stroke|hypertension|sepsis|malaria|tuberculosis|"
    r"obesity|depression|dementia|epilepsy|fibrillation|stenosis|amyloidosis|thalass\w*)$",
    re.I,
)
_INTERVENTION = re.compile(
    r"(therap(y|ies)|treatments?|inhibitors?|vaccines?|vaccination|immunotherap\w*|surgery|"
    r"stimulation|transplant\w*|blockade|ablation|replacement|prophylaxis|editing)$",
    re.I,
)
_DRUG = re.compile(r"\w+(mab|nib|parib|vir|statin|gliflozin)$", re.I)
_METHOD = re.compile(
    r"(sequencing|imaging|screening|diagnostics?|assays?|mapping|mri|crispr)$", re.I
)
_BIOMARKER = re.compile(r"(biomarkers?|markers?|ctdna|tumou?r dna)$", re.I)
_ACRONYM = re.compile(r"(?<![\w-])[A-Z](?:[A-Z0-9]|-(?=[A-Z0-9]))+(?![\w-])")
# A lone adjective ("clinical", "genetic") is no topic.
_ADJECTIVE = re.compile(r"[a-z]+(al|ic|ive|ous|ary)", re.I)
_BRACKETED = re.compile(r"\[[^\]]*\]")
_KNOWN = {"HIV": "organism", "COVID-19": "disease", "CRISPR": "method", "CAR-T": "intervention"}
# The bracketed part names the theme; without one (the categories of a stream without
# topics) it is left out and the sentence still reads whole.
_FACETS = (
    ("clinical trials", "Randomised and other interventional studies in patients[, on {theme}]."),
    ("mechanisms", "Laboratory, animal and mechanistic studies[ of {theme}]."),
    (
        "biomarkers and diagnosis",
        "Markers, tests and imaging[ in {theme}] used to detect or stratify.",
    ),
    ("safety", "Adverse events, toxicity and long-term safety[ in {theme}]."),
)
_THEMED = re.compile(r"\[([^\]]*)\]")


def _facet_text(description: str, theme: str) -> str:
    return _THEMED.sub(lambda m: m[1].format(theme=theme) if theme else "", description)


DEFAULT_EXCLUSION = (
    "Exclude editorials, comments and conference abstracts, and articles that mention these "
    "topics only in passing."
)


def capitalise(text: str) -> str:
    # str.capitalize would lower-case acronyms such as "CAR-T" or "SGLT2"; a word with a
    # capital inside ("mRNA", "eGFR") is spelled that way on purpose.
    first = text.split(" ", 1)[0]
    if any(c.isupper() for c in first[1:]):
        return text
    return text[:1].upper() + text[1:]


def lower_first(text: str) -> str:
    """ "Catheter ablation" → "catheter ablation"; "SGLT2 inhibitors" and "mRNA" stay."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def phrases(*texts: str) -> list[str]:
    """The key phrases of `texts`: pieces between connecting words, filler trimmed."""
    found: dict[str, str] = {}
    for text in texts:
        for piece in _SPLIT.split(_BRACKETED.sub(" ", text)):
            words = piece.split()
            while words and words[0].casefold().strip(".") in _FILLER:
                words.pop(0)
            while words and words[-1].casefold().strip(".") in _FILLER:
                words.pop()
            phrase = " ".join(words).strip(" .-")
            if len(words) == 1 and _ADJECTIVE.fullmatch(words[0]):
                continue
            if 1 <= len(words) <= 6 and any(len(w) >= 3 for w in words):
                found.setdefault(phrase.casefold(), phrase)
    return list(found.values())


def entity_type(phrase: str) -> str | None:
    """The entity type a phrase names, or None when it names none."""
    if phrase in _KNOWN:
        return _KNOWN[phrase]
    last = phrase.split()[-1] if phrase.split() else ""
    for pattern, kind in (
        (_DISEASE, "disease"),
        (_BIOMARKER, "biomarker"),
        (_METHOD, "method"),
        (_INTERVENTION, "intervention"),
    ):
        if pattern.search(phrase):
            return kind
    if _DRUG.fullmatch(last):
        return "drug"
    if _ACRONYM.fullmatch(phrase) and any(c.isdigit() for c in phrase):
        return "gene"
    return None


def key_words(text: str, limit: int = 5) -> str:
    """The words of the first two key phrases of `text`, each once: a search query."""
    chosen: dict[str, str] = {}
    for phrase in phrases(text)[:2]:
        for word in phrase.split():
            chosen.setdefault(word.casefold(), word)
    return " ".join(list(chosen.values())[:limit])


def entities_of(*texts: str) -> list[Pair]:
    """Entities named in `texts`: typed phrases, then acronyms; each once."""
    found: dict[str, Pair] = {}
    for phrase in phrases(*texts):
        kind = entity_type(phrase)
        if kind is not None:
            found.setdefault(phrase.casefold(), (capitalise(phrase), kind))
    for text in texts:
        for acronym in _ACRONYM.findall(text):
            kind = entity_type(acronym)
            named = any(acronym.casefold() in key for key in found)
            if kind is not None and not named:
                found.setdefault(acronym.casefold(), (acronym, kind))
    return list(found.values())[:8]


def area_of(text: str) -> Area | None:
    """The sample area `text` is about (most matching words), or None."""
    lowered = text.casefold()
    scored = [(sum(w in lowered for w in a.words), a) for a in AREAS]
    best = max(scored, key=lambda pair: pair[0])
    return best[1] if best[0] else None


def _stem(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def stems(text: str) -> frozenset[str]:
    """The words of `text` that carry meaning, singular and lower-cased: what a repeat is."""
    words = re.findall(r"[^\W_]+(?:-[^\W_]+)*", text.casefold())
    return frozenset(
        _stem(w) for w in words if w not in _CONNECTORS and w not in {"a", "an", "the"}
    )


def _overlaps(a: str, b: str) -> bool:
    return bool(stems(a) & stems(b))


def _redundant(name: str, kept: list[str]) -> bool:
    # "Sepsis" beside "Sepsis care", or the same words in another order, add nothing.
    words = stems(name)
    return any(words <= stems(k) or stems(k) <= words for k in kept)


def _merge(old: tuple[Pair, ...], new: list[Pair]) -> list[Pair]:
    """`old` as it is, then each of `new` that is not already said by an item before it."""
    kept = [name for name, _ in old]
    merged = list(old)
    for pair in new:
        if stems(pair[0]) and not _redundant(pair[0], kept):
            kept.append(pair[0])
            merged.append(pair)
    return merged


def distinct(found: list[str]) -> list[str]:
    """Phrases without those another phrase before them already says."""
    return [name for name, _ in _merge((), [(p, "") for p in found])]


def theme_of(text: str) -> str:
    """`text` without the words around it that say nothing of its subject: "new research
    on sepsis in children" → "sepsis in children"."""
    words = _BRACKETED.sub(" ", text).split()

    def empty(word: str) -> bool:
        plain = word.casefold().strip(".,:;")
        return plain in _FILLER or plain in _CONNECTORS

    while words and empty(words[0]):
        words.pop(0)
    while words and empty(words[-1]):
        words.pop()
    return " ".join(words).strip(" .,:;")


def listing(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return " and ".join(filter(None, (", ".join(items[:-1]), items[-1]))) if items else ""


_LEADS = ("New studies of", "Research on", "Articles on")


def _topic(name: str, context: str) -> Pair:
    """A topic and its description, which names its context only when that adds words."""
    lead = next((w for w in _LEADS if not _overlaps(w, name)), _LEADS[-1])
    phrase = f"{lead} {lower_first(name)}"
    if context and not _overlaps(phrase, context):
        phrase += f" in {lower_first(context)}"
    return capitalise(name), f"{phrase}."


def _facets(theme: str, count: int) -> list[Pair]:
    """Common angles on `theme`, but not one the theme already names or whose wording
    would repeat one of its words."""
    theme = lower_first(theme)
    found = []
    for name, description in _FACETS:
        if not _overlaps(name, theme) and not _overlaps(_facet_text(description, ""), theme):
            found.append((capitalise(name), _facet_text(description, theme)))
    return found[:count]


_FACET_NAMES = frozenset(capitalise(f).casefold() for f, _ in _FACETS)


def _as_topics(pairs: list[Pair]) -> list[dict[str, str]]:
    return [{"name": n, "description": d} for n, d in pairs]


def _as_entities(pairs: list[Pair]) -> list[dict[str, str]]:
    return [{"name": n, "type": t} for n, t in pairs]


def schema_proposal(draft: StreamState) -> dict[str, Any] | None:
    """A SCHEMA_PROPOSAL's data from the name and purpose; None when nothing would change."""
    found = distinct(phrases(draft.name, draft.purpose))
    if not found:
        return None
    changes: dict[str, Any] = {}
    if not draft.name:
        changes["stream_name"] = capitalise(found[0])
    if not draft.purpose:
        changes["purpose"] = f"Follow new research on {listing(found[:3])}."
    context = theme_of(draft.name) or found[0]
    topics = _merge(draft.topics, [_topic(p, context) for p in found[:6]])
    if len(topics) > len(draft.topics):
        changes["topics"] = _as_topics(topics)
    entities = _merge(draft.entities, entities_of(draft.name, draft.purpose))
    if len(entities) > len(draft.entities):
        changes["entities"] = _as_entities(entities)
    if not draft.inclusion_notes:
        names = listing([lower_first(n) for n, _ in topics[:4]])
        changes["inclusion_notes"] = f"Include original research and reviews on {names}."
    if not draft.exclusion_notes:
        changes["exclusion_notes"] = DEFAULT_EXCLUSION
    if not changes:
        return None
    words = len(draft.purpose.split())
    confidence = "medium" if words >= 8 and len(found) >= 2 else "low"
    return {
        "proposed_changes": changes,
        "confidence": confidence,
        "reasoning": "Drafted offline: the key phrases of the stream's name and purpose "
        f"({'; '.join(found[:4])}) as topics, and the things they mention as typed entities. "
        "The current items are kept.",
    }


def topic_suggestions(draft: StreamState, area: str = "") -> dict[str, Any] | None:
    """A TOPIC_SUGGESTIONS's data: phrases the draft's topics lack, then facets of its theme."""
    source = (area, draft.name, draft.purpose)
    found = distinct(phrases(*source))
    if not found:
        return None
    known = area_of(" ".join(source))
    context = theme_of(draft.name)
    candidates = [_topic(p, context) for p in found[:6]]
    if known is not None:
        candidates += [_topic(t, known.name.lower()) for t in known.topics]
    candidates += _facets(found[0], len(_FACETS))
    new = _merge(draft.topics, candidates)[len(draft.topics) :][:6]
    if not new:
        return None
    return {
        "topics": _as_topics(new),
        "reasoning": "Key phrases of the stream's name and purpose, then common angles on "
        f"{lower_first(found[0])}.",
    }


_ANGLES = ("trials", "mechanisms", "emerging therapies")


def _fitting(templates: tuple[str, ...], theme: str) -> str:
    """The first of `templates` whose own words do not repeat one of `theme`'s."""
    fits = (t for t in templates if not _overlaps(t.format(theme=""), theme))
    return next(fits, templates[-1]).format(theme=theme)


def stream_template(area: str) -> dict[str, Any]:
    """A STREAM_TEMPLATE's data for a research area (a few words, in any phrasing)."""
    known = area_of(area)
    theme = theme_of(area) or (known.name if known else "your research area")
    name = capitalise(theme)
    topics = [_topic(p, theme) for p in phrases(theme)[:3]]
    if known is not None:
        topics += [_topic(t, theme) for t in known.topics]
    topics = _merge((), _merge((), topics)[:4] + _facets(theme, 2))
    entities = entities_of(theme, *(n for n, _ in topics if n.casefold() not in _FACET_NAMES))
    draft = StreamState(name=name, topics=tuple(topics), entities=tuple(entities))
    angles = listing([a for a in _ANGLES if not _overlaps(a, theme)])
    follow = _fitting(("Follow new research on {theme}", "Follow {theme}"), theme)
    return {
        "name": name,
        "purpose": f"{follow}{': ' + angles if angles else ''}, so that nothing important "
        "is missed.",
        "topics": _as_topics(topics),
        "entities": _as_entities(entities),
        "inclusion_notes": _fitting(
            ("Include original research and reviews on {theme}.", "Include articles on {theme}."),
            theme,
        ),
        "exclusion_notes": DEFAULT_EXCLUSION,
        "queries": [{"source": "pubmed", "query": pubmed_query(draft)}],
        "categories": [{"name": n, "description": d} for n, d in categories(draft)],
    }


def _term(text: str) -> str:
    words = re.sub(r'["\[\]]', "", text).strip()
    return f'"{words}"[Title/Abstract]'


def pubmed_query(draft: StreamState) -> str:
    """A PubMed boolean query: any topic, and a named disease when the topics name none."""
    names = [n for n, _ in draft.topics if n.casefold() not in _FACET_NAMES]
    names = names or phrases(draft.name, draft.purpose)
    names = list(dict.fromkeys(n.strip() for n in names if n.strip()))[:8]
    query = "(" + " OR ".join(_term(n) for n in names) + ")"
    topic_words = " ".join(names).casefold()
    diseases = [n for n, t in draft.entities if t == "disease" and n.casefold() not in topic_words]
    if diseases:
        query += " AND (" + " OR ".join(_term(d) for d in diseases[:4]) + ")"
    return query + " NOT (editorial[Publication Type] OR comment[Publication Type])"


def retrieval_proposal(draft: StreamState) -> dict[str, Any] | None:
    """A RETRIEVAL_PROPOSAL's data from the topics (or the name and purpose)."""
    if not draft.topics and not phrases(draft.name, draft.purpose):
        return None
    basis = "topics" if draft.topics else "name and purpose"
    return {
        "queries": [
            {
                "source": "pubmed",
                "query": pubmed_query(draft),
                "rationale": f"Any of the stream's {basis} in the title or abstract; "
                "editorials and comments left out.",
            }
        ],
        "reasoning": f"Built offline from the stream's {basis}, one phrase search per item. "
        "Run it and adjust it if it finds too much or too little.",
        "confidence": "medium" if draft.topics else "low",
    }


def categories(draft: StreamState) -> list[Pair]:
    """Report categories: one per topic (at most six), reviews, and a catch-all."""
    named = [(n, f"Articles mainly about {lower_first(n)}.") for n, _ in draft.topics[:5]]
    if not named:
        named = [(capitalise(f), _facet_text(d, "")) for f, d in _FACETS[:3]]
    return [
        *named,
        ("Reviews and guidelines", "Reviews, meta-analyses and practice guidelines."),
        ("Other", "Relevant articles that fit no other category."),
    ]


def presentation_categories(draft: StreamState) -> dict[str, Any]:
    basis = "one per topic" if draft.topics else "by study type (the stream has no topics)"
    return {
        "categories": [{"name": n, "description": d} for n, d in categories(draft)],
        "reasoning": f"Categories {basis}, plus reviews and a catch-all so every article "
        "has a place.",
    }
