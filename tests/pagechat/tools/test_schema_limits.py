"""Client schemas: patterns matched in linear time, or refused; size, depth and `$ref`s
bounded (issue 34, item 1)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from pagechat.tools import schema_error
from pagechat.tools.repair import check_against
from pagechat.tools.schema_limits import (
    MAX_CLIENT_SCHEMA_DEPTH,
    MAX_CLIENT_SCHEMA_NODES,
    SchemaRefused,
    check_client_schema,
)

EVIL = "a" * 40 + "!"
"""Hours for Python's `re` with any of the patterns below; nothing for RE2."""

BACKTRACKING = ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "^(a*)*$", r"^(\w+\s?)*$", "(a+)+b"]


def _object(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


@pytest.mark.parametrize("pattern", BACKTRACKING)
def test_a_backtracking_pattern_is_checked_in_linear_time(pattern: str) -> None:
    schema = _object(code={"type": "string", "pattern": pattern})
    check_client_schema(schema, what="tool 't'")

    started = time.process_time()
    problem = schema_error(schema, {"code": EVIL})
    spent = time.process_time() - started

    assert problem is not None and "does not match" in problem
    assert spent < 60  # a bound only so that a regression ends: RE2 takes microseconds


@pytest.mark.parametrize("pattern", BACKTRACKING)
def test_a_backtracking_pattern_property_is_checked_in_linear_time(pattern: str) -> None:
    schema = {
        "type": "object",
        "patternProperties": {pattern: {"type": "integer"}},
        "additionalProperties": False,
    }
    check_client_schema(schema, what="tool 't'")

    problem = schema_error(schema, {EVIL: 1})
    repaired = check_against(schema, {EVIL: "1"})

    assert problem is not None and "Additional properties" in problem
    assert repaired.value == {}  # the key no pattern matches is dropped, as the schema forbids it


def test_patterns_still_mean_what_they_say() -> None:
    schema = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]+$"}},
        "patternProperties": {"^x-": {"type": "integer"}},
        "additionalProperties": False,
    }

    assert schema_error(schema, {"code": "ABC-12", "x-count": 3}) is None
    assert "does not match" in (schema_error(schema, {"code": "abc-12"}) or "")
    assert "is not of type" in (schema_error(schema, {"x-count": "three"}) or "")
    assert "'other' was unexpected" in (schema_error(schema, {"other": 1}) or "")
    assert check_against(schema, {"x-count": "3"}).value == {"x-count": 3}


@pytest.mark.parametrize(
    ("schema", "says"),
    [
        (_object(a={"type": "string", "pattern": "^(?=a)b"}), "cannot be matched in linear"),
        (_object(a={"type": "string", "pattern": r"(a)\1"}), "cannot be matched in linear"),
        ({"type": "object", "patternProperties": {"(?<=x)y": {}}}, "cannot be matched"),
        (_object(a={"$ref": "https://example.com/s.json"}), "outside itself"),
        (_object(a={"$ref": "#/$defs/missing"}), "to nothing"),
        ({"type": "object", "$defs": {"n": {"$ref": "#/$defs/n"}}, "$ref": "#/$defs/n"}, "itself"),
        (_object(a={"$id": "https://example.com/x", "type": "string"}), "declares $id"),
        (
            {"type": "object", "unevaluatedProperties": False, "patternProperties": {"a": {}}},
            "unevaluatedProperties beside patternProperties",
        ),
    ],
)
def test_a_schema_that_cannot_be_checked_safely_is_refused_naming_why(
    schema: dict[str, Any], says: str
) -> None:
    with pytest.raises(SchemaRefused, match="The schema of tool 't'") as refused:
        check_client_schema(schema, what="tool 't'")

    assert says in str(refused.value)


def _nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"x": schema}}
    return schema


def test_depth_just_over_the_limit_is_refused_and_at_it_accepted() -> None:
    check_client_schema(_nested(MAX_CLIENT_SCHEMA_DEPTH), what="tool 't'")

    with pytest.raises(SchemaRefused, match=f"deeper than {MAX_CLIENT_SCHEMA_DEPTH} levels"):
        check_client_schema(_nested(MAX_CLIENT_SCHEMA_DEPTH + 1), what="tool 't'")


def test_refs_that_multiply_are_counted_where_they_are_used() -> None:
    # 12 definitions, each naming the next 4 times: 4^12 schemas once the refs are followed.
    defs: dict[str, Any] = {
        f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 4} for i in range(12)
    }
    defs["d12"] = {"type": "string"}
    schema = {"type": "object", "$defs": defs, "properties": {"a": {"$ref": "#/$defs/d0"}}}

    with pytest.raises(SchemaRefused, match=f"more than {MAX_CLIENT_SCHEMA_NODES:,} schema nodes"):
        check_client_schema(schema, what="tool 't'")


def test_a_wide_schema_just_over_the_node_limit_is_refused() -> None:
    fits = _object(**{f"p{i}": {"type": "string"} for i in range(MAX_CLIENT_SCHEMA_NODES // 5)})
    over = _object(**{f"p{i}": {"type": "string"} for i in range(MAX_CLIENT_SCHEMA_NODES // 2)})

    check_client_schema(fits, what="tool 't'")
    with pytest.raises(SchemaRefused, match="schema nodes"):
        check_client_schema(over, what="tool 't'")
