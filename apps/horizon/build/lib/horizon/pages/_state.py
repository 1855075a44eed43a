"""Reading the page state the browser sent, which may be missing, partial or odd.

Nothing here raises: a value of the wrong type reads as empty, so a context
builder always has something to write.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..page_text import ContextText, Label, clean, item

Pair = tuple[str, str]


def as_dict(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


def as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


_MAX_ID = 2**63 - 1
"""No row has a larger id (a signed 64-bit key), and the database refuses to compare one."""


def as_id(value: Any) -> int | None:
    """A positive integer id, from an int or a string of digits; None if no row can have it."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 19:
        value = int(value.strip())
    if isinstance(value, int):
        return value if 0 < value <= _MAX_ID else None
    return None


def as_number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number == number else None


def first(mapping: Mapping[str, Any], *keys: str) -> Any:
    """The value of the first of `keys` that is present and not None."""
    return next((mapping[k] for k in keys if mapping.get(k) is not None), None)


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
    """A research stream as the page holds it (all of it, or a draft)."""

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
