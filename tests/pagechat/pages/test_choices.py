from __future__ import annotations

import json
from typing import Any

from pagechat.pages import ChoiceOption, find_choice_blocks
from pagechat.tools import choices_block

TWO = [{"label": "RSS feed", "value": "rss"}, {"label": "Agentic", "value": "agentic"}]


def _block(data: Any) -> str:
    return "```choices\n" + json.dumps(data) + "\n```"


def test_a_valid_block_is_found_with_its_question_options_and_span() -> None:
    block = choices_block("How to add it?", TWO)
    text = f"Two ways:\n\n{block}\n\nOr tell me."
    [found] = find_choice_blocks(text)
    assert found.valid and found.error is None
    assert found.question == "How to add it?"
    assert found.options == (ChoiceOption("RSS feed", "rss"), ChoiceOption("Agentic", "agentic"))
    assert text[found.start : found.end] == block


def test_one_or_five_options_are_not_a_valid_choice() -> None:
    for options in (TWO[:1], TWO * 2 + TWO[:1]):
        [found] = find_choice_blocks(_block({"question": "Q?", "options": options}))
        assert not found.valid and found.error == "there must be 2 to 4 options"


def test_an_option_with_an_empty_label_or_value_is_not_a_valid_choice() -> None:
    for bad in ({"label": " ", "value": "x"}, {"label": "x", "value": ""}, {"label": "x"}, "x"):
        [found] = find_choice_blocks(_block({"question": "Q?", "options": [TWO[0], bad]}))
        assert not found.valid and found.error == "option 2 needs a non-empty label and value"


def test_a_missing_question_or_broken_json_is_not_a_valid_choice() -> None:
    errors = [
        find_choice_blocks(_block({"options": TWO}))[0].error,
        find_choice_blocks("```choices\n{not json\n```")[0].error,
        find_choice_blocks(_block(["a", "b"]))[0].error,
    ]
    assert errors == [
        "the question is missing",
        "the block is not valid JSON",
        "the block is not a JSON object",
    ]


def test_an_unclosed_block_runs_to_the_end_and_is_not_valid() -> None:
    text = "Pick:\n```choices\n" + json.dumps({"question": "Q?", "options": TWO})
    [found] = find_choice_blocks(text)
    assert (found.valid, found.error, found.end) == (False, "the block is not closed", len(text))


def test_other_code_blocks_and_choices_shown_inside_them_are_ignored() -> None:
    inner = _block({"question": "Q?", "options": TWO})
    text = f"```json\n{{}}\n```\n````markdown\n{inner}\n````\n"
    assert find_choice_blocks(text) == []


def test_several_blocks_are_found_in_order() -> None:
    first = _block({"question": "First?", "options": TWO})
    second = _block({"question": "Second?", "options": TWO})
    found = find_choice_blocks(f"{first}\ntext\n{second}")
    assert [b.question for b in found] == ["First?", "Second?"]
