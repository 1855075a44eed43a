"""Reading the page state the browser sent, which may be missing, partial or odd.

A page's context builder gets the state as the browser sent it (`ChatRequest.context`),
and so does a server action (`ActionContext.page_context`): any JSON at all. These
readers never raise: a value of the wrong type reads as empty (or None), so a
builder always has something to write and an action can say what is missing::

    def build_context(context: dict[str, Any]) -> str:
        report = as_dict(context.get("report"))
        report_id = as_id(first(context, "report_id", "reportId"))
        articles = as_list(report.get("articles"))
        ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["as_dict", "as_id", "as_list", "as_number", "first"]

_MAX_ID = 2**63 - 1
"""No row has a larger id (a signed 64-bit key), and a database refuses to compare one."""


def as_dict(value: Any) -> dict[str, Any]:
    """A copy of `value` if it is a mapping, else an empty dict."""
    return dict(value) if isinstance(value, Mapping) else {}


def as_list(value: Any) -> list[Any]:
    """`value` as a list if it is a list or tuple, else an empty list."""
    return list(value) if isinstance(value, list | tuple) else []


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
    """A number from an int, a float or a numeric string; None for NaN, a bool or anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number == number else None


def first(mapping: Mapping[str, Any], *keys: str) -> Any:
    """The value of the first of `keys` that is present and not None (None if none is)."""
    return next((mapping[k] for k in keys if mapping.get(k) is not None), None)
