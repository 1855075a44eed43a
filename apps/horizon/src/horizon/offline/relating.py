"""How an attached paper relates to a report or an article, and the topic it would add.

The relation is told by words, not guessed: the terms the paper's title and abstract
share with what the page shows (the stream's name, the report's highlights, summary
and article titles, or the article's title and abstract) and with the stream's own
topics and queries. "Adding the paper to the stream" adds it as a topic of the
stream's semantic space, named after the paper, through the `schema_proposal` the
edit page already uses (its topics are the complete new list, so the current ones
are kept). Pure functions: the same paper and page always give the same answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..page_text import Label, PageText, split_item
from .papers import Paper, sentences

MAX_SHARED = 6
"""Shared terms named in a reply."""
TOPIC_NAME_CHARS = 120
"""A paper topic's name: the title, cut at a word within this many characters."""
_DESCRIPTION_CHARS = 600

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]")
# Words every paper or report uses: sharing them says nothing about the subject.
_COMMON_WORDS = """about above across after again against also although among analysis analyses
    approach based because been before being between both cell cells could data developed
    different does during each effect effects either evidence findings first found from
    further have here however identified important including into large level levels
    method methods more most much new novel other over paper patients present provide
    provides recent report reported reports result results review role several showed
    shown show shows significant significantly some studies study such than that their
    them then there these they this those through thus under until used using very well
    were what when where which while whose with within without would year years"""
_COMMON = frozenset(_COMMON_WORDS.split())


def _key(word: str) -> str:
    """A word as compared: lower case, a plural's "s" dropped."""
    word = word.casefold()
    return word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith("ss") else word


def _terms(text: str) -> dict[str, str]:
    """The subject words of `text` (four letters or more, common words left out), each
    compared form with its first spelling, in order of first use."""
    found: dict[str, str] = {}
    for word in _WORD.findall(text):
        key = _key(word)
        if len(word) < 4 or word.casefold() in _COMMON or key in _COMMON:
            continue
        found.setdefault(key, word)
    return found


def shared_terms(paper: Paper, texts: Iterable[str]) -> list[str]:
    """The paper's subject words the texts use too, as the paper spells them, title words
    first, at most `MAX_SHARED`."""
    theirs = _terms(" ".join(texts))
    ours = _terms(f"{paper.title} {paper.abstract}")
    return [word for key, word in ours.items() if key in theirs][:MAX_SHARED]


def page_texts(page: PageText) -> list[str]:
    """What the page shows of its report or article, as plain text to compare with."""
    texts = [
        page.field(label) or ""
        for label in (Label.STREAM_NAME, Label.HIGHLIGHTS, Label.SUMMARY, Label.TITLE)
    ]
    texts.append(page.field(Label.ABSTRACT) or "")
    texts += list(page.items(Label.HIGHLIGHTS))
    texts += [split_item(line)[1] for line in page.items(Label.ARTICLES)]
    return [t for t in texts if t]


def stream_texts(fields: dict[str, str]) -> list[str]:
    """The stream's name, purpose, topics and queries from its details (`fields_in`)."""
    labels = ("Name", "Purpose", "Topics", "Entities", "Retrieval queries")
    return [fields[label] for label in labels if fields.get(label)]


def stream_topics(topics_line: str) -> list[dict[str, str]]:
    """The stream's topics as `get_stream_details` lists them ("A (what A is); B")."""
    if topics_line.strip() in ("", "none"):
        return []
    topics = []
    for part in topics_line.split("; "):
        match = re.fullmatch(r"(.+?) \((.*)\)", part.strip())
        name, description = match.groups() if match else (part.strip(), "")
        if name:
            topics.append({"name": name, "description": description})
    return topics


def topic_name(paper: Paper) -> str:
    """The name the paper's topic gets: its title, cut at a word if long."""
    title = paper.title.strip().rstrip(".")
    if len(title) <= TOPIC_NAME_CHARS:
        return title
    return title[:TOPIC_NAME_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"


def paper_proposal(
    paper: Paper, *, current: list[dict[str, str]], stream: str, shared: list[str]
) -> dict[str, Any] | None:
    """A `schema_proposal` adding the paper as a topic after the stream's current ones;
    None when a topic of that name is there already."""
    name = topic_name(paper)
    if any(t["name"].casefold() == name.casefold() for t in current):
        return None
    first = next(iter(sentences(paper.abstract)), "")
    description = f"Seed paper: {first}" if first else "Seed paper shared in the chat."
    topic = {"name": name, "description": description[:_DESCRIPTION_CHARS]}
    plural = "" if len(current) == 1 else "s"
    kept = f"keeps its {len(current)} current topic{plural}" if current else "is its first topic"
    why = f"it shares {', '.join(shared)} with it" if shared else "it shares no terms with it yet"
    return {
        "proposed_changes": {"topics": [*current, topic]},
        "confidence": "medium" if shared else "low",
        "reasoning": f"Adds the paper as a topic of “{stream}” ({kept}); {why}.",
    }
