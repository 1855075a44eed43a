"""JSON that is slightly off its JSON Schema, repaired where the meaning is unambiguous.

A model (or a tool) sometimes writes `"3"` for `3`, adds a field the schema forbids, or
leaves out a field the schema gives a default. `check_against` validates first; only when
that fails does it build a repaired copy guided by the schema's own keywords, and it uses
the copy only if the copy then validates. The repairs are pydantic's lax coercions and
little else:

* a string holding a number where the schema wants a number (`"3"` → `3`, `"2.5"` → `2.5`),
  a whole float where it wants an integer (`3.0` → `3`);
* `"true"`/`"false"` (and pydantic's other words for them, and `0`/`1`) where it wants a boolean;
* a field the schema forbids (`additionalProperties: false`) dropped;
* a missing field that has a `default` in the schema filled with it;
* `null` for a field that may be left out but may not be null, left out.

Nothing else is guessed: a number is never turned into a string, an enum is never matched
loosely, and where several branches of an `anyOf`/`oneOf` could be meant, none is picked.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from ..protocol import PAYLOAD_ERROR, CustomPayload, PayloadErrorData
from .schema_limits import linear_search, linear_validator_for

__all__ = [
    "SchemaCheck",
    "check_against",
    "check_payload_data",
    "payload_error",
    "repaired",
    "schema_error",
]

_INTEGER = re.compile(r"\s*[+-]?\d+\s*")
_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*")
_TRUE = frozenset({"true", "t", "yes", "y", "on", "1"})
_FALSE = frozenset({"false", "f", "no", "n", "off", "0"})
_MAX_DEPTH = 64
_DETAILS_CHARS = 2000


def schema_error(schema: dict[str, Any], value: Any) -> str | None:
    """Why `value` does not satisfy the JSON Schema `schema`, or None. Its patterns are
    matched in linear time (`schema_limits`): a client may have written them."""
    validator_cls = linear_validator_for(schema)
    error = jsonschema.exceptions.best_match(validator_cls(schema).iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message}" if where else error.message


@dataclass(frozen=True)
class SchemaCheck:
    """What `check_against` found: `value` to use when `problem` is None."""

    value: Any
    problem: str | None = None
    """Why the value, even repaired, does not satisfy the schema (of the value as given)."""
    repaired: bool = False


def check_against(schema: dict[str, Any], value: Any) -> SchemaCheck:
    """`value` if it satisfies `schema`, else its repaired copy if that does, else the problem."""
    problem = schema_error(schema, value)
    if problem is None:
        return SchemaCheck(value)
    fixed = repaired(schema, value)
    if schema_error(schema, fixed) is None:
        return SchemaCheck(fixed, repaired=True)
    return SchemaCheck(value, problem)


def repaired(schema: dict[str, Any], value: Any) -> Any:
    """A copy of `value` with the repairs of the module doc applied; `value` is not changed.

    The copy is not checked: `check_against` does that.
    """
    return _Repair(schema).value(schema, copy.deepcopy(value), 0)


def payload_error(
    payload_type: str, reason: str, problem: str, written: Any = None
) -> CustomPayload:
    """The `payload_error` card that stands in for a payload that cannot be shown: `reason`
    is one line for the user; `problem` and the data as written (clipped) are its details."""
    details = problem
    if written is not None:
        shown = written if isinstance(written, str) else json.dumps(written, ensure_ascii=False)
        details = f"{problem}\n\nAs written:\n{shown}"
    if len(details) > _DETAILS_CHARS:
        details = details[:_DETAILS_CHARS] + "…"
    data = PayloadErrorData(payload_type=payload_type or "unknown", reason=reason, details=details)
    return CustomPayload(type=PAYLOAD_ERROR, data=data.model_dump())


def check_payload_data(
    payload_type: str, schema: dict[str, Any] | None, data: Any
) -> CustomPayload:
    """The payload `{type, data}` with its data checked against `schema` (repaired if it
    can be), or a `payload_error` card saying why it cannot be shown."""
    if schema is None:
        return CustomPayload(type=payload_type, data=data)
    check = check_against(schema, data)
    if check.problem is not None:
        return payload_error(
            payload_type,
            f"The {_words(payload_type)} is not in the form it must have.",
            check.problem,
            data,
        )
    return CustomPayload(type=payload_type, data=check.value)


def _words(payload_type: str) -> str:
    return payload_type.replace("_", " ")[:64] or "proposal"


def _valid(schema: Any, value: Any, root: dict[str, Any]) -> bool:
    if not isinstance(schema, dict):
        return schema is not False
    validator_cls = linear_validator_for(root)
    # Sub-schemas are checked with the whole document as their root, so `$ref`s resolve.
    validator = validator_cls(root).evolve(schema=schema)
    return bool(validator.is_valid(value))


def _key(value: Any) -> str:
    # JSON tells 1 from true, which Python's == does not.
    return json.dumps(value, sort_keys=True, default=str)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "other"


def _fits(kind: str, wanted: list[str]) -> bool:
    return kind in wanted or (kind == "integer" and "number" in wanted)


def _coerced(value: Any, target: str) -> tuple[bool, Any]:
    """pydantic's lax coercion of a scalar to the JSON type `target`: (done, result)."""
    if target in ("integer", "number") and isinstance(value, str):
        if _INTEGER.fullmatch(value):
            return True, int(value)
        if target == "number" and _NUMBER.fullmatch(value):
            number = float(value)
            return (True, number) if math.isfinite(number) else (False, None)
    if target == "integer" and isinstance(value, float) and value.is_integer():
        return True, int(value)
    if target == "boolean":
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return True, value.strip().lower() in _TRUE
        if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            return True, value == 1
    return False, None


class _Repair:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root

    def _resolve(self, schema: dict[str, Any]) -> Any:
        ref = schema.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#"):
            return schema
        node: Any = self.root
        for part in ref[1:].split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                return schema
            node = node[part]
        return node

    def value(self, schema: Any, value: Any, depth: int) -> Any:
        if not isinstance(schema, dict) or depth > _MAX_DEPTH:
            return value
        if "$ref" in schema:
            return self.value(self._resolve(schema), value, depth + 1)
        for part in schema.get("allOf", ()):
            value = self.value(part, value, depth + 1)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                value = self._one_of(schema[key], value, depth)
        wanted = schema.get("type")
        wanted = [wanted] if isinstance(wanted, str) else wanted
        if isinstance(wanted, list) and not _fits(_kind(value), wanted):
            value = self._retyped(value, wanted)
        if isinstance(value, dict) and ("properties" in schema or "additionalProperties" in schema):
            return self._object(schema, value, depth)
        if isinstance(value, list):
            return self._array(schema, value, depth)
        return value

    def _retyped(self, value: Any, wanted: list[str]) -> Any:
        # Only when exactly one of the wanted types takes it: else the meaning is open.
        results: dict[str, Any] = {}
        for target in wanted:
            done, result = _coerced(value, target)
            if done:
                results[_key(result)] = result
        return next(iter(results.values())) if len(results) == 1 else value

    def _one_of(self, branches: Any, value: Any, depth: int) -> Any:
        if not isinstance(branches, list) or any(_valid(b, value, self.root) for b in branches):
            return value
        fixed: dict[str, Any] = {}
        for branch in branches:
            candidate = self.value(branch, copy.deepcopy(value), depth + 1)
            if _valid(branch, candidate, self.root):
                fixed[_key(candidate)] = candidate
        return next(iter(fixed.values())) if len(fixed) == 1 else value

    def _object(self, schema: dict[str, Any], value: dict[str, Any], depth: int) -> Any:
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        patterns = schema.get("patternProperties")
        patterns = patterns if isinstance(patterns, dict) else {}
        extra = schema.get("additionalProperties", True)
        required = set(schema.get("required", ()))
        result: dict[str, Any] = {}
        for key, item in value.items():
            if key in properties:
                sub = properties[key]
                if item is None and key not in required and not _valid(sub, None, self.root):
                    continue  # null for a field that may be left out: left out
                result[key] = self.value(sub, item, depth + 1)
                continue
            pattern = next((s for p, s in patterns.items() if linear_search(p, key)), None)
            if pattern is not None:
                result[key] = self.value(pattern, item, depth + 1)
            elif extra is False:
                continue  # a field the schema forbids: dropped
            else:
                result[key] = self.value(extra, item, depth + 1)
        for key, sub in properties.items():
            if key not in result and isinstance(sub, dict) and "default" in sub:
                result[key] = copy.deepcopy(sub["default"])
        return result

    def _array(self, schema: dict[str, Any], value: list[Any], depth: int) -> Any:
        prefix = schema.get("prefixItems")
        prefix = prefix if isinstance(prefix, list) else []
        items = schema.get("items")
        result = []
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else items
            result.append(self.value(sub, item, depth + 1))
        return result
