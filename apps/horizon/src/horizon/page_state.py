"""Horizon's page state: what its web pages send, read into what the page text shows.

The browser's state may be missing, partial or odd; pagechat's readers
(`pagechat.pages.as_dict`, `as_id`, `first`...) take any of it without raising.
What is Horizon's own is here: lists of named items as (name, detail) pairs, and a
research stream as a page holds it (`StreamState`): read from the state the
edit-stream and new-stream pages send (`read_stream`), written as page text
(`write_stream`), and read back from that text by the offline model (`stream_of`),
which drafts its proposals from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pagechat.pages import as_dict, as_list, first

from .page_text import ContextText, Label, PageText, clean, item, split_item

__all__ = ["Pair", "StreamState", "pairs", "read_stream", "stream_of", "write_stream"]

Pair = tuple[str, str]
"""A named item and its detail ("" when it has none): a topic and its description..."""


def pairs(value: Any, name_keys: tuple[str, ...], detail_keys: tuple[str, ...]) -> list[Pair]:
    """(name, detail) of each item of a list of objects or strings; nameless items are skipped."""
    found: list[Pair] = []
    for entry in as_list(value):
        if isinstance(entry, Mapping):
            name, detail = first(entry, *name_keys), first(entry, *detail_keys)
        else:
            name, detail = (entry if isinstance(entry, str) else None), None
        name_text = clean(name, 200)
        if name_text:
            found.append((name_text, clean(detail, 300)))
    return found


@dataclass(frozen=True)
class StreamState:
    """A research stream as the page holds it (all of it, or a draft; all may be empty)."""

    name: str = ""
    purpose: str = ""
    topics: tuple[Pair, ...] = ()
    entities: tuple[Pair, ...] = ()
    inclusion_notes: str = ""
    exclusion_notes: str = ""
    queries: tuple[Pair, ...] = ()
    categories: tuple[Pair, ...] = ()


def read_stream(value: Any) -> StreamState:
    """A stream from `{name, purpose, semantic_space: {...}, retrieval_config: {...},
    presentation_config: {...}}`; the layers' keys may also sit on the stream itself."""
    stream = as_dict(value)
    semantic = {**stream, **as_dict(stream.get("semantic_space"))}
    retrieval = {**stream, **as_dict(stream.get("retrieval_config"))}
    presentation = {**stream, **as_dict(stream.get("presentation_config"))}
    return StreamState(
        name=clean(first(stream, "name", "stream_name"), 200),
        purpose=clean(stream.get("purpose"), 1000),
        topics=tuple(pairs(semantic.get("topics"), ("name", "title"), ("description",))),
        entities=tuple(
            pairs(semantic.get("entities"), ("name",), ("type", "entity_type", "category"))
        ),
        inclusion_notes=clean(first(semantic, "inclusion_notes", "inclusion_criteria"), 1000),
        exclusion_notes=clean(first(semantic, "exclusion_notes", "exclusion_criteria"), 1000),
        queries=tuple(_queries(retrieval)),
        categories=tuple(pairs(presentation.get("categories"), ("name",), ("description",))),
    )


def _queries(retrieval: dict[str, Any]) -> list[Pair]:
    found: list[Pair] = []
    for entry in as_list(first(retrieval, "queries", "sources")):
        if isinstance(entry, str):
            source, query = "pubmed", entry
        else:
            entry = as_dict(entry)
            source = first(entry, "source", "source_id") or "pubmed"
            query = first(entry, "query", "query_expression", "expression")
        if clean(query):
            found.append((clean(source, 40), clean(query, 1000)))
    return found


def write_stream(text: ContextText, stream: StreamState) -> None:
    """All three layers of a stream, each list with its count."""
    text.field(Label.STREAM_NAME, stream.name, always=True)
    text.field(Label.PURPOSE, stream.purpose, limit=1000, always=True)
    text.items(Label.TOPICS, (item(n, d) for n, d in stream.topics), limit=40)
    text.items(Label.ENTITIES, (item(n, t) for n, t in stream.entities), limit=40)
    text.field(Label.INCLUSION, stream.inclusion_notes, limit=1000, always=True)
    text.field(Label.EXCLUSION, stream.exclusion_notes, limit=1000, always=True)
    text.items(Label.QUERIES, (item(s, q) for s, q in stream.queries), item_chars=1000)
    text.items(Label.CATEGORIES, (item(n, d) for n, d in stream.categories))


def stream_of(page: PageText) -> StreamState:
    """The stream `write_stream` wrote into a page's text, read back."""

    def read_pairs(label: str) -> tuple[Pair, ...]:
        return tuple(split_item(i) for i in page.items(label))

    return StreamState(
        name=page.field(Label.STREAM_NAME) or "",
        purpose=page.field(Label.PURPOSE) or "",
        topics=read_pairs(Label.TOPICS),
        entities=read_pairs(Label.ENTITIES),
        inclusion_notes=page.field(Label.INCLUSION) or "",
        exclusion_notes=page.field(Label.EXCLUSION) or "",
        queries=read_pairs(Label.QUERIES),
        categories=read_pairs(Label.CATEGORIES),
    )
