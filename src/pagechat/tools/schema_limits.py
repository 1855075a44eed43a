"""JSON Schemas that cannot hold the event loop: linear-time patterns and bounded size.

A client may declare a schema (an AG-UI frontend tool's parameters), and the model's
arguments are then validated against it on the event loop. Python's `re` backtracks: a
`pattern` such as `^(a+)+$` takes seconds on 30 characters, and holds the GIL, so a thread
does not help. Every `pattern` and `patternProperties` key is therefore matched with RE2
(`google-re2`), whose time is linear in the text, by `linear_validator_for`, which
`repair.schema_error` and the repairs use for every schema; a pattern RE2 cannot compile
(look-arounds, back-references) runs in `re` only in a schema the server itself wrote:
`check_client_schema` refuses it in a client's.

A client's schema is bounded too, before anything reads it: its depth, its node count
with every `$ref` counted where it is used (a few `$defs` that each refer twice to the
next would otherwise make a validation of 2^n steps), local `$ref`s only, no recursion.
`unevaluatedProperties` beside `patternProperties` is refused, since jsonschema matches
those patterns with `re` of its own while it looks for the evaluated properties.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
import re2

__all__ = [
    "MAX_CLIENT_SCHEMA_DEPTH",
    "MAX_CLIENT_SCHEMA_NODES",
    "SchemaRefused",
    "check_client_schema",
    "linear_search",
    "linear_validator_for",
]

MAX_CLIENT_SCHEMA_DEPTH = 32
"""How deep a client's schema may nest (objects and arrays of it, `$ref`s followed)."""
MAX_CLIENT_SCHEMA_NODES = 2_000
"""How many schema objects and keywords a client's schema may hold, each `$ref` counted
as the schema it names, every time it is used."""

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a client's bad pattern must not write to the server's stderr
_REFS = ("$ref", "$dynamicRef", "$recursiveRef")


class SchemaRefused(ValueError):
    """A client's JSON Schema over a limit, or with a pattern RE2 cannot run: a 422."""


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> Any:
    """The pattern in RE2, or None when RE2 cannot compile it."""
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error:
        return None


def _re2_problem(pattern: str) -> str | None:
    try:
        re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else "not supported"
        return reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)
    return None


def linear_search(pattern: str, text: str) -> bool:
    """Whether `pattern` matches anywhere in `text`: in RE2 (linear time) when it compiles
    there, else in `re` (a schema of the server's own; a client's was refused)."""
    compiled = _compiled(pattern)
    if compiled is None:
        return re.search(pattern, text) is not None
    return compiled.search(text) is not None


def _pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not linear_search(patrn, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {patrn!r}")


def _pattern_properties(
    validator: Any, pattern_properties: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in pattern_properties.items():
        for key, value in instance.items():
            if linear_search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, aP: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = [
        key
        for key in instance
        if key not in properties and not any(linear_search(p, key) for p in patterns)
    ]
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP and extras:
        verb = "was" if len(extras) == 1 else "were"
        listed = ", ".join(repr(e) for e in sorted(extras))
        yield jsonschema.ValidationError(
            f"Additional properties are not allowed ({listed} {verb} unexpected)"
        )


@functools.cache
def _linear(base: type[Any]) -> type[Any]:
    extended: type[Any] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        base,
        {
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
        },
    )
    return extended


def linear_validator_for(schema: Any) -> type[Any]:
    """The validator class of `schema`'s draft (2020-12 when it names none), whose
    `pattern`, `patternProperties` and `additionalProperties` match in RE2."""
    return _linear(jsonschema.validators.validator_for(schema))


def check_client_schema(schema: Any, *, what: str) -> None:
    """Raise SchemaRefused, naming `what` and the limit, for a client's schema that is too
    deep or too large (its `$ref`s expanded), refers outside itself or to itself, or has a
    pattern RE2 cannot run."""
    _Walk(schema, what).schema(schema, depth=0, trail=())


# Where a schema holds schemas: under a name each, in a list, or as the value itself.
_NAMED = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
_LISTED = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
_ONE = frozenset(
    {
        "not",
        "if",
        "then",
        "else",
        "items",
        "additionalItems",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contains",
        "propertyNames",
    }
)
# A resource of its own inside a schema changes what its `$ref`s resolve against.
_RESOURCES = frozenset({"$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "id"})


class _Walk:
    def __init__(self, root: Any, what: str) -> None:
        self.root = root
        self.what = what
        self.nodes = 0
        self.has_pattern_properties = False
        self.has_unevaluated = False

    def refuse(self, reason: str) -> SchemaRefused:
        return SchemaRefused(f"The schema of {self.what} {reason}")

    def count(self, depth: int) -> None:
        self.nodes += 1
        if self.nodes > MAX_CLIENT_SCHEMA_NODES:
            raise self.refuse(
                f"has more than {MAX_CLIENT_SCHEMA_NODES:,} schema nodes "
                "(each $ref counted where it is used)"
            )
        if depth > MAX_CLIENT_SCHEMA_DEPTH:
            raise self.refuse(f"nests deeper than {MAX_CLIENT_SCHEMA_DEPTH} levels")

    def schema(self, schema: Any, *, depth: int, trail: tuple[str, ...]) -> None:
        self.count(depth)
        if not isinstance(schema, dict):
            return  # true, false, or not a schema (check_schema says so)
        for key, value in schema.items():
            self.count(depth)
            if key in _RESOURCES and depth > 0:
                raise self.refuse(f"declares {key} inside itself; only its root may")
            if key in _REFS:
                self.ref(value, depth=depth, trail=trail)
            elif key == "pattern" and isinstance(value, str):
                self.pattern(value)
            elif key == "unevaluatedProperties":
                self.has_unevaluated = True
            if key == "patternProperties" and isinstance(value, dict):
                self.has_pattern_properties = True
                for pattern in value:
                    self.pattern(pattern)
            if self.has_pattern_properties and self.has_unevaluated:
                raise self.refuse("uses unevaluatedProperties beside patternProperties")
            self.below(key, value, depth=depth, trail=trail)

    def below(self, key: str, value: Any, *, depth: int, trail: tuple[str, ...]) -> None:
        """The schemas a keyword holds, walked; other values are data and not read."""
        if key in _NAMED and isinstance(value, dict):
            for sub in value.values():
                if isinstance(sub, dict | bool):
                    self.schema(sub, depth=depth + 1, trail=trail)
        elif key in _LISTED and isinstance(value, list):
            for sub in value:
                self.schema(sub, depth=depth + 1, trail=trail)
        elif key in _ONE:
            self.schema(value, depth=depth + 1, trail=trail)

    def pattern(self, pattern: str) -> None:
        problem = _re2_problem(pattern)
        if problem is not None:
            raise self.refuse(
                f"has a pattern {pattern[:80]!r} that cannot be matched in linear time "
                f"(RE2: {problem}); look-arounds and back-references are not accepted"
            )

    def ref(self, ref: Any, *, depth: int, trail: tuple[str, ...]) -> None:
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            raise self.refuse(f"has a $ref {str(ref)[:80]!r} outside itself (only '#/...')")
        if ref in trail:
            raise self.refuse(f"refers to itself through {ref[:80]!r}")
        target: Any = self.root
        for part in ref[2:].split("/") if ref != "#" else ():
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                raise self.refuse(f"has a $ref {ref[:80]!r} to nothing")
            target = target[part]
        self.schema(target, depth=depth + 1, trail=(*trail, ref))
