from __future__ import annotations

from typing import Any

import pytest

from horizon.tool_specs import (
    ALL_TOOL_SPECS,
    GET_REPORT_ARTICLES,
    GET_STREAM_DETAILS,
    SEARCH_PUBMED,
)
from pagechat.tools import schema_error


def test_tool_names_are_distinct() -> None:
    names = [s.name for s in ALL_TOOL_SPECS]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    ("spec", "given", "ok"),
    [
        (SEARCH_PUBMED, {"query": "CRISPR"}, True),
        (SEARCH_PUBMED, {"query": "CRISPR", "max_results": 50}, True),
        (SEARCH_PUBMED, {"query": "CRISPR", "max_results": 51}, False),
        (SEARCH_PUBMED, {"query": ""}, False),
        (GET_STREAM_DETAILS, {"stream_id": 3}, True),
        (GET_STREAM_DETAILS, {"stream_id": "3"}, False),
        (GET_REPORT_ARTICLES, {"report_id": 1, "limit": 0}, False),
    ],
)
def test_input_schemas_accept_valid_input_only(spec: Any, given: dict[str, Any], ok: bool) -> None:
    assert (schema_error(spec.input_schema, given) is None) is ok
