from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pagechat.pages import PayloadConfig


def _example(payload: PayloadConfig) -> tuple[str, Any]:
    """The example line of a payload's instructions, and the JSON it carries."""
    lines = payload.llm_instructions.splitlines()
    line = lines[lines.index("Example:") + 1]
    assert line.startswith(payload.parse_marker + " ")
    return line, json.loads(line[len(payload.parse_marker) :])


@pytest.fixture
def example_of() -> Callable[[PayloadConfig], tuple[str, Any]]:
    return _example
