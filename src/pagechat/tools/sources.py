"""A tool result's sources: numbered per answer, and listed for the model to cite as `[n]`.

An answer's sources are numbered in the order they were first returned, over all its
tool calls (the same `id` returned again keeps its number), so the model's `[2]` always
names one source of that answer. The model reads each call's sources after its text,
numbered (`cite_block`); the tray renders `[n]` in the answer's own text only, matched
against the answer's list, so a `[3]` inside tool data or the page stays text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..protocol import Source

__all__ = ["SourceNumbers", "answer_sources", "cite_block", "with_sources"]


class SourceNumbers:
    """The numbers an answer's sources have so far; `number` gives the next ones theirs."""

    def __init__(self, earlier: Iterable[Source] = ()) -> None:
        self._by_id: dict[str, Source] = {}
        for source in earlier:
            if source.number is not None:
                self._by_id.setdefault(source.id, source)

    def number(self, sources: Sequence[Source]) -> list[Source]:
        """`sources` with their numbers in the answer: a known id keeps its number (and the
        data it was first given with), a new one gets the next; duplicates in one result
        are kept once."""
        numbered: dict[str, Source] = {}
        for source in sources:
            known = self._by_id.get(source.id)
            if known is None:
                known = source.model_copy(update={"number": self._next()})
                self._by_id[source.id] = known
            numbered.setdefault(source.id, known)
        return list(numbered.values())

    def _next(self) -> int:
        return max((s.number or 0 for s in self._by_id.values()), default=0) + 1


def answer_sources(calls: Iterable[Iterable[Source]]) -> list[Source]:
    """The answer's list: every call's numbered sources, once each, by number."""
    by_number: dict[int, Source] = {}
    for sources in calls:
        for source in sources:
            if source.number is not None:
                by_number.setdefault(source.number, source)
    return [by_number[n] for n in sorted(by_number)]


def cite_block(sources: Sequence[Source], *, snippets: bool = True) -> str:
    """The numbered list the model reads after a tool result's text, to cite as `[n]`
    (without the snippets in an earlier turn's history, which is kept short)."""
    lines = ["Sources (cite a statement that uses one as [n], its number here):"]
    for source in sources:
        head = f"[{source.number}] {_one_line(source.title)}"
        if source.detail:
            head += f". {_one_line(source.detail)}"
        if source.url:
            head += f". {source.url}"
        lines.append(head)
        if snippets and source.snippet:
            lines.append(f"    {_one_line(source.snippet)}")
    return "\n".join(lines)


def with_sources(text: str, sources: Sequence[Source], *, snippets: bool = True) -> str:
    """A tool result's text as the model reads it: its sources listed after it, numbered."""
    if not sources:
        return text
    block = cite_block(sources, snippets=snippets)
    return f"{text}\n\n{block}" if text else block


def _one_line(text: str) -> str:
    return " ".join(text.split())
