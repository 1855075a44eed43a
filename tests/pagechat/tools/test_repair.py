"""Repairing data slightly off its JSON Schema: only where the meaning is unambiguous."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from pagechat.tools.repair import check_against, schema_error

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "score": {"type": "number"},
        "ok": {"type": "boolean"},
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "integer"}},
        "level": {"enum": ["low", "high"], "default": "low"},
    },
    "required": ["count", "level"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ({"count": "3", "level": "low"}, {"count": 3, "level": "low"}),
        (
            {"count": 3.0, "score": "2.5", "level": "high"},
            {"count": 3, "score": 2.5, "level": "high"},
        ),
        ({"count": 1, "ok": "false", "level": "low"}, {"count": 1, "ok": False, "level": "low"}),
        ({"count": 1, "ok": 1, "level": "low"}, {"count": 1, "ok": True, "level": "low"}),
        ({"count": 1, "extra": {"x": 1}, "level": "low"}, {"count": 1, "level": "low"}),
        ({"count": 1}, {"count": 1, "level": "low"}),
        ({"count": 1, "name": None, "level": "low"}, {"count": 1, "level": "low"}),
        (
            {"count": 1, "tags": ["1", 2], "level": "low"},
            {"count": 1, "tags": [1, 2], "level": "low"},
        ),
    ],
)
def test_data_slightly_off_is_repaired_to_what_was_meant(
    written: dict[str, Any], meant: dict[str, Any]
) -> None:
    check = check_against(SCHEMA, written)
    assert (check.problem, check.value, check.repaired) == (None, meant, True)


@pytest.mark.parametrize(
    "written",
    [
        {"count": "three", "level": "low"},
        {"count": 3.5, "level": "low"},
        {"count": 1, "name": 7, "level": "low"},
        {"count": 1, "level": "LOW"},
        {"level": "low"},
        {"count": 1, "ok": "maybe", "level": "low"},
    ],
)
def test_data_whose_meaning_is_open_is_not_guessed(written: dict[str, Any]) -> None:
    check = check_against(SCHEMA, written)
    assert check.problem is not None and check.value == written and not check.repaired


def test_valid_data_is_used_as_it_is_even_when_a_repair_would_change_it() -> None:
    # No default is filled into valid data: repair is only for what fails.
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": 1}}}
    check = check_against(schema, {})
    assert (check.value, check.repaired) == ({}, False)


class _Item(BaseModel):
    n: int
    label: str | None = None


class _Plan(BaseModel):
    items: list[_Item]
    urgent: bool = False


def test_a_pydantic_schema_with_refs_and_optionals_is_repaired_like_pydantic_would() -> None:
    schema = _Plan.model_json_schema()
    written = {"items": [{"n": "2", "label": None}, {"n": 4.0}], "urgent": "yes"}
    check = check_against(schema, written)
    assert check.problem is None
    assert _Plan.model_validate(check.value) == _Plan.model_validate(written)


def test_where_two_branches_could_be_meant_none_is_picked() -> None:
    schema = {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}
    assert check_against(schema, "1").problem is not None
    assert check_against(schema, "7").value == 7


json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(value=json_values)
def test_what_is_used_always_satisfies_the_schema(value: Any) -> None:
    check = check_against(SCHEMA, value)
    if check.problem is None:
        assert schema_error(SCHEMA, check.value) is None
    else:
        assert check.value == value


@given(
    count=st.integers(),
    tags=st.lists(st.integers(), max_size=4),
    as_text=st.booleans(),
)
def test_numbers_written_as_text_come_back_as_the_numbers(
    count: int, tags: list[int], as_text: bool
) -> None:
    meant = {"count": count, "tags": tags, "level": "high"}
    written = {**meant, "count": str(count), "tags": [str(t) if as_text else t for t in tags]}
    assert check_against(SCHEMA, written).value == meant
