"""The user's streams as a whole: overlaps, gaps and new stream ideas, by plain rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..page_text import split_item
from ..pubmed import tokenize
from .drafting import AREAS, Area, lower_first

_HEAD = re.compile(r"\[(\d+)\]\s*(.*)")
_DETAIL = re.compile(r"(purpose|topics(?: \(\d+\))?|reports|latest report): (.*)")
# Words every stream shares; an overlap on them says nothing.
_COMMON = frozenset(
    {"research", "stream", "studie", "study", "new", "therapy", "disease", "monitor"}
)


@dataclass(frozen=True)
class StreamLine:
    """One stream as the streams page lists it."""

    id: int | None
    name: str
    purpose: str = ""
    topics: tuple[str, ...] = ()
    reports: int | None = None
    topic_count: int = 0

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})" if self.id is not None else self.name

    def words(self) -> set[str]:
        text = " ".join((self.name, *self.topics))
        return {w for w in tokenize(text) if len(w) > 3 and w not in _COMMON}


def read_stream_line(text: str) -> StreamLine:
    """A stream from its line on the streams page (see `horizon.pages.streams`)."""
    head, details = split_item(text)
    match = _HEAD.fullmatch(head)
    stream_id, name = (int(match.group(1)), match.group(2)) if match else (None, head)
    facts: dict[str, str] = {}
    for part in details.split("; "):
        found = _DETAIL.fullmatch(part.strip())
        if found:
            facts[found.group(1).split(" (")[0]] = found.group(2)
    listed = facts.get("topics", "")
    topics = () if listed.isdigit() else tuple(t.strip() for t in listed.split(", ") if t.strip())
    reports = facts.get("reports", "")
    return StreamLine(
        stream_id,
        name.strip(),
        facts.get("purpose", ""),
        topics,
        int(reports) if reports.isdigit() else None,
        int(listed) if listed.isdigit() else len(topics),
    )


def _covered(streams: list[StreamLine], area: Area) -> bool:
    text = " ".join(" ".join((s.name, s.purpose, *s.topics)) for s in streams).casefold()
    return any(word in text for word in area.words)


def uncovered_areas(streams: list[StreamLine]) -> list[Area]:
    return [a for a in AREAS if not _covered(streams, a)]


def stream_suggestions(streams: list[StreamLine]) -> dict[str, Any]:
    """Up to three streams for sample areas no current stream covers."""
    areas = uncovered_areas(streams)[:3] or list(AREAS[:1])
    return {
        "suggestions": [
            {
                "name": f"{area.name} monitor",
                "purpose": f"Follow new research in {area.name.lower()}: "
                f"{', '.join(lower_first(t) for t in area.topics)}.",
                "topics": list(area.topics),
                "rationale": "None of your streams covers this area yet."
                if not _covered(streams, area)
                else "A starting point; you already follow this area.",
            }
            for area in areas
        ],
        "reasoning": "Areas Horizon's sample library covers that your streams do not.",
    }


def portfolio_insights(streams: list[StreamLine]) -> dict[str, Any]:
    """Overlaps, thin coverage, inactive streams and uncovered areas."""
    insights: list[dict[str, Any]] = []
    for a, b in combinations(streams, 2):
        shared = sorted(a.words() & b.words())
        if shared:
            insights.append(
                {
                    "kind": "overlap",
                    "title": f"{a.name} and {b.name} overlap",
                    "detail": f"Both follow: {', '.join(shared[:5])}.",
                    "stream_ids": [s.id for s in (a, b) if s.id is not None],
                }
            )
    thin = [s for s in streams if s.topic_count < 3]
    if thin:
        insights.append(
            {
                "kind": "coverage",
                "title": "Streams with few topics",
                "detail": f"{', '.join(s.label for s in thin)}: fewer than three topics; "
                "they may miss relevant articles.",
                "stream_ids": [s.id for s in thin if s.id is not None],
            }
        )
    idle = [s for s in streams if s.reports == 0]
    if idle:
        insights.append(
            {
                "kind": "activity",
                "title": "Streams without reports",
                "detail": f"{', '.join(s.label for s in idle)} have no report yet.",
                "stream_ids": [s.id for s in idle if s.id is not None],
            }
        )
    gaps = uncovered_areas(streams)
    if gaps:
        insights.append(
            {
                "kind": "gap",
                "title": "Areas you do not follow",
                "detail": f"No stream covers {', '.join(a.name.lower() for a in gaps)}.",
            }
        )
    topics = sum(s.topic_count for s in streams)
    return {
        "summary": f"{len(streams)} stream(s) with {topics} topic(s).",
        "insights": insights
        or [{"kind": "other", "title": "Nothing stands out", "detail": "No overlap or gap."}],
        "recommendations": _recommendations(insights),
    }


def _recommendations(insights: list[dict[str, Any]]) -> list[str]:
    advice = {
        "overlap": "Merge overlapping topics, or sharpen each stream's exclusion notes.",
        "coverage": "Add topics to the thin streams (ask me on their edit page).",
        "activity": "Run the streams without reports, or retire them.",
        "gap": "Consider a stream for an area you do not follow yet.",
    }
    kinds = dict.fromkeys(i["kind"] for i in insights)
    return [advice[k] for k in kinds if k in advice]
