from __future__ import annotations

import json
import re

from pagechat.tools import PRESENT_CHOICES, ToolContext, ToolResult, choices_block, execute_tool
from pagechat.tools.choices import choices_as_text


async def _run(params: dict[str, object]) -> ToolResult:
    items = [i async for i in execute_tool(PRESENT_CHOICES, params, ToolContext())]
    result = items[-1]
    assert isinstance(result, ToolResult)
    return result


async def test_present_choices_answers_with_the_exact_choices_block() -> None:
    options = [{"label": "Use RSS feed", "value": "rss"}, {"label": "Agentic", "value": "agentic"}]
    result = await _run({"question": "How to add it?", "options": options, "context": "Two ways."})
    assert not result.is_error
    block = re.search(r"```choices\n(.*?)\n```", result.text, re.S)
    assert block is not None
    assert json.loads(block.group(1)) == {"question": "How to add it?", "options": options}
    assert result.text.startswith("Two ways.\n\n```choices\n")


async def test_present_choices_rejects_one_or_five_options() -> None:
    one = [{"label": "a", "value": "a"}]
    five = [{"label": str(i), "value": str(i)} for i in range(5)]
    for options in (one, five):
        result = await _run({"question": "Q?", "options": options})
        assert result.is_error and "Invalid input" in result.text


async def test_present_choices_rejects_an_empty_label() -> None:
    result = await _run(
        {"question": "Q?", "options": [{"label": "", "value": "a"}, {"label": "b", "value": "b"}]}
    )
    assert result.is_error


def test_choices_as_text_is_the_question_and_the_labels() -> None:
    options = [{"label": "Use RSS feed", "value": "rss"}, {"label": "Agentic", "value": "a"}]
    text = f"Two ways.\n\n{choices_block('How to add it?', options)}\n\nThen save."
    assert (
        choices_as_text(text)
        == "Two ways.\n\nHow to add it?\n- Use RSS feed\n- Agentic\n\nThen save."
    )
    assert choices_as_text(text, inline=True) == (
        "Two ways.\n\nHow to add it? Use RSS feed · Agentic\n\nThen save."
    )
