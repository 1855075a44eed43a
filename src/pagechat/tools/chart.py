"""The built-in `chart` payload: a Vega-Lite spec a tool answers with, checked on the server.

A tool returns `ToolResult(text, chart_payload(spec, title=...))`; the spec may come from
altair (`chart.to_dict()`) or be written by hand. Every tool result whose payload has
type `chart` is checked before it reaches anyone (`checked_payload`, called by
`execute_tool`): a spec that could make the browser fetch something, or is too large or
too deep, turns the result into an error the model reads. The tray renders the spec with
vega-embed and Vega's CSP-safe expression interpreter.

Checks: a JSON object under `MAX_SPEC_BYTES` and `MAX_DEPTH`, with a Vega-Lite view at
the top (`mark`, `layer`, a concat, `facet`, `repeat` or `spec`); data only inline
(`values`, or named `datasets`); no key `url` or `href` anywhere (data, images, links),
and no string anywhere that is a URL (other than the `$schema` Vega-Lite names).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = [
    "CHART",
    "CHART_DATA_SCHEMA",
    "MAX_DEPTH",
    "MAX_SPEC_BYTES",
    "ChartSpecError",
    "chart_payload",
    "checked_payload",
    "validate_chart_spec",
]

CHART = "chart"
"""The payload type."""
MAX_SPEC_BYTES = 200_000
MAX_DEPTH = 24
_VIEWS = frozenset({"mark", "layer", "hconcat", "vconcat", "concat", "facet", "repeat", "spec"})
_FORBIDDEN_KEYS = frozenset({"url", "href"})
_SCHEMA = re.compile(r"^https://vega\.github\.io/schema/vega-lite/v\d+(\.\d+)*\.json$")
_URLISH = re.compile(r"^\s*(?:(?:https?|ftp|file|data|javascript|blob|wss?):|//)", re.I)


_NODE: dict[str, Any] = {
    "anyOf": [
        {
            "type": "object",
            "maxProperties": 200,
            "propertyNames": {"pattern": "^(?![Uu][Rr][Ll]$)(?![Hh][Rr][Ee][Ff]$)"},
            "additionalProperties": {"$ref": "#/$defs/node"},
        },
        {"type": "array", "maxItems": 5000, "items": {"$ref": "#/$defs/node"}},
        {
            "type": "string",
            "maxLength": 2000,
            "not": {
                "pattern": "^\\s*(?:(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp]|[Ff][Ii][Ll][Ee]"
                "|[Dd][Aa][Tt][Aa]|[Jj][Aa][Vv][Aa][Ss][Cc][Rr][Ii][Pp][Tt]|[Bb][Ll][Oo][Bb]"
                "|[Ww][Ss][Ss]?):|//)"
            },
        },
        {"type": ["number", "boolean", "null"]},
    ]
}
CHART_DATA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["spec"],
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string", "maxLength": 200},
        "spec": {
            "type": "object",
            "anyOf": [{"required": [view]} for view in sorted(_VIEWS)],
            "properties": {"$schema": {"type": "string", "pattern": _SCHEMA.pattern}},
            "additionalProperties": {"$ref": "#/$defs/node"},
        },
    },
    "$defs": {"node": _NODE},
}
"""The same rules as a JSON Schema, for a chart the model writes itself (`CHART:`)."""


class ChartSpecError(ValueError):
    """A chart spec that may not be shown (the tool's mistake, told to the model)."""


def _walk(node: Any, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ChartSpecError(f"the spec is nested deeper than {MAX_DEPTH} levels")
    if isinstance(node, dict):
        for key, value in node.items():
            where = f"{path}.{key}" if path else str(key)
            if str(key).lower() in _FORBIDDEN_KEYS:
                raise ChartSpecError(f"`{where}`: only inline data, no URLs")
            if where == "$schema":
                if not (isinstance(value, str) and _SCHEMA.match(value)):
                    raise ChartSpecError("`$schema` must name a Vega-Lite schema")
                continue
            _walk(value, where, depth + 1)
    elif isinstance(node, list):
        for number, item in enumerate(node):
            _walk(item, f"{path}[{number}]", depth + 1)
    elif isinstance(node, str) and _URLISH.match(node):
        raise ChartSpecError(f"`{path}`: a URL is not allowed in a chart")


def validate_chart_spec(spec: Any) -> dict[str, Any]:
    """`spec` if it may be shown; ChartSpecError says why not."""
    if not isinstance(spec, dict):
        raise ChartSpecError("a chart spec is a JSON object")
    try:
        size = len(json.dumps(spec, allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        raise ChartSpecError(f"the spec is not plain JSON: {exc}") from None
    if size > MAX_SPEC_BYTES:
        raise ChartSpecError(f"the spec is {size} bytes; at most {MAX_SPEC_BYTES}")
    if not _VIEWS & spec.keys():
        raise ChartSpecError("not a Vega-Lite spec: no mark, layer, concat, facet or repeat")
    _walk(spec, "", 0)
    return spec


def chart_payload(spec: dict[str, Any], *, title: str = "") -> dict[str, Any]:
    """The `{type, data}` payload of a chart, checked (ChartSpecError when refused)."""
    return {"type": CHART, "data": {"title": title, "spec": validate_chart_spec(spec)}}


def checked_payload(payload: dict[str, Any] | None) -> dict[str, Any] | None:
    """A tool result's payload, with a `chart` one checked; other payloads pass as they are."""
    if payload is None or payload.get("type") != CHART:
        return payload
    data = payload.get("data")
    if not isinstance(data, dict):
        raise ChartSpecError("a chart payload's data is {title, spec}")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 200:
        raise ChartSpecError("a chart's title is a string of at most 200 characters")
    validate_chart_spec(data.get("spec"))
    return payload
