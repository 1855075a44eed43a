"""Checking a stream's settings with plain rules, for VALIDATION_RESULTS / _FEEDBACK."""

from __future__ import annotations

from typing import Any

from ..page_state import StreamState
from ..pubmed import tokenize

Issue = dict[str, str]


def _issue(field: str, message: str) -> Issue:
    return {"field": field, "message": message}


def _duplicates(names: list[str]) -> list[str]:
    seen: set[str] = set()
    twice: list[str] = []
    for name in names:
        key = name.casefold()
        if key in seen and name not in twice:
            twice.append(name)
        seen.add(key)
    return twice


def _query_problem(query: str) -> str | None:
    if query.count("(") != query.count(")"):
        return "its parentheses do not balance"
    if query.count('"') % 2:
        return "a quotation mark is not closed"
    return None


def check(draft: StreamState, *, existing: bool) -> dict[str, list[Issue]]:
    """Errors, warnings and suggestions; `existing` streams must also have queries."""
    errors: list[Issue] = []
    warnings: list[Issue] = []
    suggestions: list[Issue] = []
    if not draft.name:
        errors.append(_issue("name", "The stream has no name."))
    if not draft.purpose:
        errors.append(_issue("purpose", "The stream has no purpose: say what to follow and why."))
    elif len(draft.purpose.split()) < 8:
        warnings.append(_issue("purpose", "The purpose is short; say what to follow and why."))
    topic_names = [n for n, _ in draft.topics]
    if not topic_names:
        errors.append(_issue("topics", "The stream has no topics."))
    elif len(topic_names) < 3:
        warnings.append(_issue("topics", f"Only {len(topic_names)} topic(s); 3 to 8 work best."))
    for name in _duplicates(topic_names):
        errors.append(_issue("topics", f"The topic “{name}” is there twice."))
    bare = [n for n, d in draft.topics if not d]
    if bare:
        suggestions.append(_issue("topics", f"Describe these topics: {', '.join(bare[:5])}."))
    if not draft.entities:
        suggestions.append(_issue("entities", "Add the diseases, drugs or genes to watch."))
    if not draft.inclusion_notes:
        suggestions.append(_issue("inclusion_notes", "Say which articles must be included."))
    if not draft.exclusion_notes:
        suggestions.append(_issue("exclusion_notes", "Say which articles to leave out."))
    _check_queries(draft, existing, errors, warnings)
    if existing and not draft.categories:
        warnings.append(
            _issue("categories", "No presentation categories: reports will not group articles.")
        )
    for name in _duplicates([n for n, _ in draft.categories]):
        errors.append(_issue("categories", f"The category “{name}” is there twice."))
    return {"errors": errors, "warnings": warnings, "suggestions": suggestions}


def _check_queries(
    draft: StreamState, existing: bool, errors: list[Issue], warnings: list[Issue]
) -> None:
    if existing and not draft.queries:
        errors.append(_issue("queries", "No retrieval query: the stream will find nothing."))
    topic_words = set(tokenize(" ".join(n for n, _ in draft.topics)))
    for number, (_source, query) in enumerate(draft.queries, 1):
        problem = _query_problem(query)
        if problem is not None:
            errors.append(_issue("queries", f"Query {number}: {problem}."))
        elif topic_words and not topic_words & set(tokenize(query)):
            warnings.append(_issue("queries", f"Query {number} mentions none of the topics."))


def summary(issues: dict[str, list[Issue]]) -> str:
    counts = [(len(issues[k]), k[:-1]) for k in ("errors", "warnings", "suggestions")]
    return ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in counts)


def validation_results(draft: StreamState) -> dict[str, Any]:
    issues = check(draft, existing=True)
    return {**issues, "summary": summary(issues)}


def validation_feedback(draft: StreamState) -> dict[str, Any]:
    issues = check(draft, existing=False)
    return {"ready": not issues["errors"], **issues, "summary": summary(issues)}
