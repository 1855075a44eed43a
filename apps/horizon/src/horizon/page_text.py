"""The page-context text format: what Horizon's pages show the model, read back.

Each page's context builder writes the page state as short labelled lines, which
a language model reads easily and the offline model (which only gets the system
prompt) can read back::

    Page: edit_stream
    Tab: semantic
    Stream name: Cancer immunotherapy
    Topics (2):
    - CAR-T cell therapy — engineered T cells for solid tumours
    - Checkpoint inhibitors
    (3 more not shown)

A field is `Label: value`; a list is `Label (n):` followed by `- item` lines; a
list item is a name, then optionally " — " and details. Values are cut to one
line, so what the user typed can never start a line of its own (and so never
forge a field); any other line is prose for the model only. A label is read
case-insensitively, and the first field of a label wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pagechat.pages import PAGE_CONTEXT_TAG

__all__ = [
    "ITEM_SEPARATOR",
    "NOT_SET",
    "ContextText",
    "Label",
    "PageText",
    "clean",
    "item",
    "read_page_text",
    "split_item",
]

NOT_SET = "(not set)"
ITEM_SEPARATOR = " — "

_CLOSE = f"</{PAGE_CONTEXT_TAG}>"
_FIELD = re.compile(r"([A-Z][A-Za-z0-9 /'-]{0,40}?): (.*)")
_LIST = re.compile(r"([A-Z][A-Za-z0-9 /'-]{0,40}) \((\d+)\):(?: none)?")
_SPACE = re.compile(r"\s+")


class Label:
    """The labels Horizon's pages write and the offline model reads."""

    PAGE = "Page"
    TAB = "Tab"
    STREAM_ID = "Stream ID"
    STREAM_NAME = "Stream name"
    PURPOSE = "Purpose"
    TOPICS = "Topics"
    ENTITIES = "Entities"
    INCLUSION = "Inclusion notes"
    EXCLUSION = "Exclusion notes"
    QUERIES = "Retrieval queries"
    CATEGORIES = "Presentation categories"
    UNSAVED = "Unsaved changes"
    STREAMS = "Research streams"
    REPORT_ID = "Report ID"
    REPORT_DATE = "Report date"
    HIGHLIGHTS = "Key highlights"
    SUMMARY = "Thematic summary"
    ARTICLES = "Articles"
    SELECTED_PMID = "Selected article PMID"
    SELECTED_TITLE = "Selected article title"
    ARTICLE_PMID = "Article PMID"
    TITLE = "Title"
    AUTHORS = "Authors"
    JOURNAL = "Journal"
    YEAR = "Year"
    DOI = "DOI"
    ABSTRACT = "Abstract"
    RELEVANCE = "Relevance score"
    RATIONALE = "Relevance rationale"
    CATEGORY = "Category"
    STARRED = "Starred"
    NOTES = "Notes"


def clean(value: Any, limit: int = 400) -> str:
    """`value` as one line of at most `limit` characters ("" for None and containers)."""
    if value is None or isinstance(value, dict | list | tuple | set):
        return ""
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".") if value == value else ""
    else:
        text = str(value)
    # The prompt wraps this text in the page-context tags; keep user text from closing them.
    text = _SPACE.sub(" ", text).strip().replace(_CLOSE, "</page context>")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def item(name: str, details: str = "") -> str:
    """A list item: the name, then " — " and the details when there are any."""
    return f"{name}{ITEM_SEPARATOR}{details}" if details else name


def split_item(text: str) -> tuple[str, str]:
    """A list item's name and details ("" when it has none)."""
    name, _, details = text.partition(ITEM_SEPARATOR)
    return name.strip(), details.strip()


class ContextText:
    """Writes a page context in this format; `render()` gives the text."""

    def __init__(self, page: str, tab: str | None = None) -> None:
        self._lines = [f"{Label.PAGE}: {page}"]
        if tab is not None:
            self.field(Label.TAB, tab, always=True)

    def field(self, label: str, value: Any, *, limit: int = 400, always: bool = False) -> None:
        """`Label: value`; an empty value is written as "(not set)" with `always`, else skipped."""
        text = clean(value, limit)
        if text or always:
            self._lines.append(f"{label}: {text or NOT_SET}")

    def items(
        self, label: str, items: Iterable[str], *, limit: int = 30, item_chars: int = 300
    ) -> None:
        """`Label (n):` and up to `limit` `- item` lines (empty items are left out)."""
        texts = [t for t in (clean(i, item_chars) for i in items) if t]
        if not texts:
            self._lines.append(f"{label} (0): none")
            return
        self._lines.append(f"{label} ({len(texts)}):")
        self._lines.extend(f"- {t}" for t in texts[:limit])
        if len(texts) > limit:
            self._lines.append(f"({len(texts) - limit} more not shown)")

    def line(self, text: str) -> None:
        """A line of prose for the model."""
        self._lines.append(clean(text, 2000))

    def render(self) -> str:
        return "\n".join(self._lines)


@dataclass(frozen=True)
class PageText:
    """A page context read back; labels are matched case-insensitively."""

    fields: Mapping[str, str] = field(default_factory=dict)
    lists: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def page(self) -> str | None:
        return self.field(Label.PAGE)

    @property
    def tab(self) -> str | None:
        return self.field(Label.TAB)

    def field(self, label: str) -> str | None:
        return self.fields.get(label.casefold())

    def number(self, label: str) -> int | None:
        value = self.field(label)
        return int(value) if value is not None and value.isdigit() else None

    def items(self, label: str) -> tuple[str, ...]:
        return self.lists.get(label.casefold(), ())


def read_page_text(text: str) -> PageText:
    """Read a context written by `ContextText` (prose and odd lines are skipped)."""
    fields: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if current is not None and line.startswith("- "):
            current.append(line[2:].strip())
            continue
        current = None
        header = _LIST.fullmatch(line)
        if header is not None:
            current = lists.setdefault(header.group(1).casefold(), [])
            continue
        match = _FIELD.fullmatch(line)
        if match is not None:
            label, value = match.group(1).casefold(), match.group(2).strip()
            if value and value != NOT_SET:
                fields.setdefault(label, value)
    return PageText(fields, {k: tuple(v) for k, v in lists.items()})
