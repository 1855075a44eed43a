"""Reading tools' result text, leniently (see `horizon.tool_specs` for what it relies on)."""

from __future__ import annotations

import re

_PMID = re.compile(r"\bPMID\s*[:#]?\s*([A-Z]{0,3}\d{1,9})\b", re.I)
_FIELD = re.compile(r"\s*(?:[-*•]\s+)?([A-Z][A-Za-z /()'-]{0,30}?):\s+(\S.*)")
_TITLE = re.compile(r"\s*(?:[-*•]\s+)?Title:\s+(\S.*)", re.I)
_STREAM_ID = re.compile(r"\bID\s*[:#]?\s*(\d{1,9})\b|\[(\d{1,9})\]|#(\d{1,9})\b", re.I)
_LEAD = re.compile(r"^[\s\-*•>]*(?:\d+[.)]\s*)?")
_EDGES = " \t-—–:|,;"


def articles_in(text: str) -> list[tuple[str, str]]:
    """(PMID, title) of every article the text names, in order, each PMID once."""
    found: dict[str, str] = {}
    lines = text.splitlines()
    for number, line in enumerate(lines):
        match = _PMID.search(line)
        if match is None:
            continue
        pmid = match.group(1).upper()
        if pmid not in found:
            found[pmid] = _title_on(line, match) or _title_below(lines, number)
    return list(found.items())


_SOURCE = re.compile(r"\[(\d{1,4})\] .*?\bPMID ([A-Z]{0,3}\d{1,12})\b")


def source_numbers(text: str) -> dict[str, int]:
    """The number each article has among the answer's sources, by PMID: the numbered list
    pagechat adds after a tool's text (`[1] Title. PMID 123 · Journal, 2021. https://...`),
    to cite as `[1]`."""
    numbers: dict[str, int] = {}
    for line in text.splitlines():
        match = _SOURCE.match(line)
        if match is not None:
            numbers.setdefault(match.group(2).upper(), int(match.group(1)))
    return numbers


def without_sources(text: str) -> str:
    """The tool's own text: the numbered sources list after it (a heading line, then
    `[1] ...` lines) left out."""
    lines = text.splitlines()
    for number, line in enumerate(lines[:-1]):
        if line.endswith(":") and re.match(r"\[\d+\] ", lines[number + 1]):
            return "\n".join(lines[:number]).rstrip()
    return text


def cite(numbers: dict[str, int], pmid: str) -> str:
    """` [n]` for the article's source number, or nothing when it is not a source."""
    number = numbers.get(pmid.upper())
    return f" [{number}]" if number is not None else ""


def _title_on(line: str, match: re.Match[str]) -> str:
    before, after = line[: match.start()], line[match.end() :]
    if _LEAD.sub("", before).strip(_EDGES + "("):
        title = before  # "Title (PMID 123)"
    else:
        # "1. PMID 123 (rank 1, score 0.9) — Title": the parenthesis holds facts.
        title = re.sub(r"^\s*\([^)]*\)", "", after)
    title = _LEAD.sub("", title).strip(_EDGES + "(")
    return re.sub(r"^title:\s*", "", title, flags=re.I)


def _title_below(lines: list[str], number: int) -> str:
    for line in lines[number + 1 : number + 8]:
        if _PMID.search(line):
            break
        match = _TITLE.fullmatch(line)
        if match:
            return match.group(1).strip()
    return ""


def fields_in(text: str) -> dict[str, str]:
    """The "Label: value" lines of the text, first of each label, in order."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _FIELD.fullmatch(line)
        if match:
            found.setdefault(match.group(1).strip(), match.group(2).strip())
    return found


def stream_ids_in(text: str) -> list[int]:
    """The stream IDs of a listing: the first "ID n", "[n]" or "#n" of each line."""
    ids: list[int] = []
    for line in text.splitlines():
        match = _STREAM_ID.search(line)
        if match:
            number = int(next(g for g in match.groups() if g))
            if number not in ids:
                ids.append(number)
    return ids


def listing_lines(text: str, limit: int) -> list[str]:
    """The item lines of a listing (bullets and numbering taken off)."""
    items = [_LEAD.sub("", line).strip() for line in text.splitlines()]
    return [i for i, raw in zip(items, text.splitlines(), strict=True) if i and _is_item(raw)][
        :limit
    ]


def _is_item(line: str) -> bool:
    return bool(re.match(r"\s*(?:[-*•]\s|\d+[.)]\s|\[\d+\]|#\d)", line)) or bool(
        _STREAM_ID.search(line)
    )


def first_lines(text: str, limit: int) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()][:limit]


def first_line(text: str, default: str = "no details") -> str:
    lines = first_lines(text, 1)
    return lines[0] if lines else default


def sentences(text: str, limit: int) -> str:
    """The first `limit` sentences of `text`, on one line."""
    words = " ".join(text.split())
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z\[])", words)
    return " ".join(parts[:limit])
