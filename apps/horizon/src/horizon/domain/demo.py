"""The demo account's research streams and reports, built from the articles in the store.

Everything is derived deterministically: the same articles give the same
streams, reports, rankings, scores, rationales and categories. Articles are
picked by full-text search on each stream's topics; a report's articles are
scored by how much of the best-matching topic they contain (and where), ranked,
and put in a category by the kind of study they describe.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..pubmed import ArticleRecord, tokenize
from .articles import record_of
from .reports import NewReportArticle, create_report
from .schemas import (
    Category,
    Entity,
    PresentationConfig,
    RetrievalConfig,
    RetrievalQuery,
    SemanticSpace,
    StreamCreate,
    Topic,
)
from .search import search_articles
from .streams import create_stream
from .tables import Article, ResearchStream

__all__ = ["DEMO_REPORT_DATES", "DEMO_STREAMS", "seed_demo"]

DEMO_REPORT_DATES: tuple[date, ...] = (date(2025, 6, 16), date(2025, 6, 9), date(2025, 6, 2))
"""Newest first: the newest report gets the best-matching articles."""
ARTICLES_PER_REPORT = 8
_PER_TOPIC = 3 * ARTICLES_PER_REPORT

CLINICAL = "Clinical evidence"
REVIEWS = "Reviews and guidance"
LABORATORY = "Laboratory and translational"
_CATEGORIES = [
    Category(name=CLINICAL, description="Trials and studies in patients or populations."),
    Category(name=REVIEWS, description="Reviews, meta-analyses, guidelines and consensus."),
    Category(name=LABORATORY, description="Mechanisms, methods, cell and animal studies."),
]
_REVIEW_TITLE_WORDS = frozenset({"review", "meta", "guideline", "consensus", "overview"})
_REVIEW_PHRASES = ("systematic review", "meta-analysis", "this review", "we review")
_CLINICAL_WORDS = frozenset(
    {"trial", "patient", "cohort", "clinical", "randomized", "randomised", "participant"}
)
_CHECK_TAGS = frozenset(
    {
        "humans", "male", "female", "animals", "adult", "aged", "aged, 80 and over",
        "middle aged", "young adult", "adolescent", "child", "infant", "mice", "rats",
    }
)  # fmt: skip
"""MeSH check tags: on most articles, so they say nothing about a report's themes."""


def _stream(
    name: str,
    purpose: str,
    topics: Sequence[tuple[str, str]],
    entities: Sequence[tuple[str, str]],
    exclusion: str,
    query: str,
) -> StreamCreate:
    return StreamCreate(
        name=name,
        purpose=purpose,
        semantic_space=SemanticSpace(
            topics=[Topic(name=n, description=d) for n, d in topics],
            entities=[Entity.model_validate({"name": n, "type": t}) for n, t in entities],
            inclusion_notes="Original research, reviews and guidelines in humans or models.",
            exclusion_notes=exclusion,
        ),
        retrieval_config=RetrievalConfig(
            queries=[RetrievalQuery(source="pubmed", query=query, rationale="Built from topics.")]
        ),
        presentation_config=PresentationConfig(categories=list(_CATEGORIES)),
    )


DEMO_STREAMS: tuple[StreamCreate, ...] = (
    _stream(
        "CRISPR and gene editing",
        "Follow gene editing tools, from CRISPR-Cas9 to base editing, and gene therapy "
        "from the laboratory to the clinic.",
        [
            ("CRISPR", "CRISPR-Cas systems and their uses."),
            ("genome editing", "Changing DNA in living cells."),
            ("gene therapy", "Treating disease by adding or correcting genes."),
            ("genetic variants", "Variants that editing could correct, and their effects."),
        ],
        [("CRISPR-Cas9", "method"), ("Cas9", "protein"), ("Sickle cell disease", "disease")],
        "Plant and agricultural editing.",
        '("CRISPR"[Title/Abstract] OR "genome editing"[Title/Abstract]) '
        'OR "gene therapy"[Title/Abstract]',
    ),
    _stream(
        "Cancer immunotherapy",
        "Track immune-based cancer treatments: checkpoint inhibitors, cell therapies and "
        "vaccines, and what predicts response.",
        [
            ("immune checkpoint inhibitors", "PD-1, PD-L1 and CTLA-4 blockade."),
            ("CAR-T cell therapy", "Engineered T cells."),
            ("tumor microenvironment", "Immune cells and signals around tumours."),
            ("cancer immunotherapy", "Immune-based cancer treatment in general."),
        ],
        [("PD-1", "protein"), ("Melanoma", "disease"), ("CAR-T", "intervention")],
        "Supportive care without an immune mechanism.",
        '("immunotherapy"[Title/Abstract] OR "checkpoint inhibitor"[Title/Abstract]) '
        'AND "cancer"[Title/Abstract]',
    ),
    _stream(
        "Cardiovascular disease",
        "Keep up with prevention and treatment of heart failure, arrhythmia, hypertension "
        "and coronary disease.",
        [
            ("heart failure", "Drug and device therapy."),
            ("atrial fibrillation", "Detection, ablation and anticoagulation."),
            ("hypertension", "Blood pressure control."),
            ("myocardial infarction", "Acute coronary syndromes and their aftermath."),
        ],
        [("Heart failure", "disease"), ("SGLT2 inhibitors", "drug"), ("Hypertension", "disease")],
        "Congenital heart disease in children.",
        '"heart failure"[Title/Abstract] OR "atrial fibrillation"[Title/Abstract] '
        'OR "hypertension"[Title/Abstract]',
    ),
)
"""The demo account's streams, in the order they are created."""


@dataclass(frozen=True, slots=True)
class _Scored:
    article: Article
    relevance: float
    rationale: str
    category: str
    topic: str


async def seed_demo(*, session: AsyncSession, user_id: str) -> bool:
    """Give the user the demo streams and reports, unless they have streams already.

    Returns True when it created them. Flushes; the caller commits.
    """
    existing = await session.scalar(
        select(func.count()).select_from(ResearchStream).where(ResearchStream.user_id == user_id)
    )
    if existing:
        return False
    for stream_in in DEMO_STREAMS:
        stream = await create_stream(session=session, user_id=user_id, stream_in=stream_in)
        topics = [t.name for t in stream_in.semantic_space.topics]
        candidates = await _candidates(session, topics)
        for number, report_date in enumerate(DEMO_REPORT_DATES):
            chosen = candidates[number * ARTICLES_PER_REPORT : (number + 1) * ARTICLES_PER_REPORT]
            if not chosen:
                break
            await _report(session, stream, report_date, chosen, topics, newest=number == 0)
    return True


async def _candidates(session: AsyncSession, topics: list[str]) -> list[Article]:
    """Articles for the topics, taking turns between topics so each report is varied."""
    per_topic = [
        [m.article for m in await search_articles(session=session, query=t, limit=_PER_TOPIC)]
        for t in topics
    ]
    chosen: dict[int, Article] = {}
    for turn in range(_PER_TOPIC):
        for found in per_topic:
            if turn < len(found):
                chosen.setdefault(found[turn].id, found[turn])
    return list(chosen.values())[: len(DEMO_REPORT_DATES) * ARTICLES_PER_REPORT]


def _score(article: Article, topics: list[str]) -> _Scored:
    """Relevance from the best-matching topic: how much of it the article has, how much
    of it is in the title, and how many other topics it fully covers."""
    record = record_of(article)
    title = set(tokenize(record.title))
    words = title | set(tokenize(" ".join(record.mesh_terms))) | set(tokenize(record.abstract))
    coverage: dict[str, float] = {}
    for topic in topics:
        wanted = set(tokenize(topic))
        coverage[topic] = len(wanted & words) / len(wanted) if wanted else 0.0
    best = max(topics, key=lambda t: coverage[t])  # the first topic wins a tie
    best_words = set(tokenize(best))
    in_title = len(best_words & title) / len(best_words) if best_words else 0.0
    others = [t for t in topics if t != best and coverage[t] == 1.0]
    breadth = (1 + len(others)) / len(topics) if coverage[best] > 0 else 0.0
    relevance = round(0.4 + 0.3 * coverage[best] + 0.1 * breadth + 0.19 * in_title, 2)
    where = (
        "its title" if in_title == 1 else "its title and abstract" if in_title else "its abstract"
    )
    rationale = f"Matches the topic “{best}” in {where}"
    if others:
        rationale += f"; also touches {', '.join(f'“{t}”' for t in others)}"
    return _Scored(article, relevance, rationale + ".", _category(record, title, words), best)


def _category(record: ArticleRecord, title: set[str], words: set[str]) -> str:
    """The kind of study, from the words of the title (and MeSH terms) and the abstract."""
    heading = title | set(tokenize(" ".join(record.mesh_terms)))
    abstract = record.abstract.casefold()
    if heading & _REVIEW_TITLE_WORDS or any(p in abstract for p in _REVIEW_PHRASES):
        return REVIEWS
    if words & _CLINICAL_WORDS:
        return CLINICAL
    return LABORATORY


def _highlight(article: Article) -> str:
    title = article.title if len(article.title) <= 160 else article.title[:157].rstrip() + "…"
    where = ", ".join(str(p) for p in (article.journal, article.year) if p)
    return f"{title} (PMID {article.pmid}{', ' + where if where else ''})"


def _summary(stream_name: str, scored: list[_Scored]) -> str:
    categories = Counter(s.category for s in scored)
    topics = Counter(s.topic for s in scored)
    mesh = Counter(
        term for s in scored for term in s.article.mesh_terms if term.casefold() not in _CHECK_TAGS
    )

    def most(counter: Counter[str], limit: int) -> list[tuple[str, int]]:
        return sorted(counter.items(), key=lambda pair: (-pair[1], pair[0]))[:limit]

    parts = [
        f"{len(scored)} articles for {stream_name}.",
        "By kind: " + ", ".join(f"{name} ({n})" for name, n in most(categories, 3)) + ".",
        "Topics: " + ", ".join(f"{name} ({n})" for name, n in most(topics, 4)) + ".",
    ]
    if mesh:
        parts.append("Frequent MeSH terms: " + ", ".join(name for name, _ in most(mesh, 5)) + ".")
    return " ".join(parts)


async def _report(
    session: AsyncSession,
    stream: ResearchStream,
    report_date: date,
    articles: list[Article],
    topics: list[str],
    *,
    newest: bool,
) -> None:
    scored = sorted(
        (_score(a, topics) for a in articles), key=lambda s: (-s.relevance, s.article.pmid)
    )
    entries = [
        NewReportArticle(
            article=s.article,
            relevance_score=s.relevance,
            rationale=s.rationale,
            ranking=rank,
            category=s.category,
            starred=newest and rank == 1,
            notes="Read in full: the strongest match this week." if newest and rank == 1 else "",
        )
        for rank, s in enumerate(scored, 1)
    ]
    await create_report(
        session=session,
        stream=stream,
        report_date=report_date,
        key_highlights=[_highlight(s.article) for s in scored[:3]],
        thematic_summary=_summary(stream.name, scored),
        articles=entries,
    )
