"""A tool's config and result as the app builds them."""

from __future__ import annotations

from typing import Any

import pytest

from pagechat.payloads import Payload
from pagechat.tools import ToolConfig, ToolResult


class Hits(Payload):
    payload_type = "hits"

    total: int


def test_a_tool_result_keeps_a_payload_model_as_its_payload_dict() -> None:
    result = ToolResult("3 hits", payload=Hits(total=3))

    assert result.payload == {"type": "hits", "data": {"total": 3}}
    assert result == ToolResult("3 hits", {"type": "hits", "data": {"total": 3}})


def test_a_tool_config_is_keyword_only() -> None:
    def run(params: dict[str, Any], ctx: Any) -> str:
        return "ok"

    positional: Any = ToolConfig
    with pytest.raises(TypeError):
        positional("run", "Run.", {"type": "object"}, run)
