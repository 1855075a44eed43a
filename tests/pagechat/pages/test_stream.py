from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagechat.pages import ReplyStreamFilter

MARKERS = ["SCHEMA_PROPOSAL:", "SUGGESTED_VALUES:", "SUGGESTED_ACTIONS:"]

# Pieces that reach every branch of the scanner when strung together.
FRAGMENTS = [
    "Hello there. ",
    "Plan",
    "\n",
    "\n\n",
    " ",
    "SCHEMA_PROPOSAL:",
    "SCHEMA_PRO",
    "POSAL: ",
    "SUGGESTED_VALUES: ",
    "SUGGESTED_ACTIONS:",
    "x",
    '{"name": "Oncology", "topics": ["a", "b"]}',
    '{"text": "a } brace and a \\" quote {"}',
    '["Yes", "No"]',
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    "not json",
    "```",
    "```json\n",
    "```python\n",
    "~~~\n",
    "[[tool:1]]",
    "[[",
    "tool:",
]

replies = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=25).map("".join)


def _split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    return [text[a:b] for a, b in itertools.pairwise(points)]


def _stream(deltas: list[str], markers: list[str] = MARKERS) -> list[str]:
    stream = ReplyStreamFilter(markers)
    return [stream.feed(d) for d in deltas] + [stream.flush()]


def _shown(text: str, markers: list[str] = MARKERS) -> str:
    return "".join(_stream([text], markers))


@settings(max_examples=300, deadline=None)
@given(text=replies, cuts=st.lists(st.integers(min_value=0), max_size=12))
def test_the_shown_text_is_the_same_however_the_reply_is_split(text: str, cuts: list[int]) -> None:
    assert "".join(_stream(_split(text, cuts))) == _shown(text)


@settings(max_examples=100, deadline=None)
@given(text=replies)
def test_the_shown_text_is_the_same_when_fed_one_character_at_a_time(text: str) -> None:
    assert "".join(_stream(list(text))) == _shown(text)


def test_a_marker_split_across_deltas_never_shows() -> None:
    deltas = ["Here you go. SCHEMA_PRO", 'POSAL: {"name": ', '"Onc"}', " Anything else?"]
    outputs = _stream(deltas)
    assert outputs == ["Here you go. ", "", "", "Anything else?", ""]


def test_text_resembling_a_marker_is_released_as_soon_as_it_differs() -> None:
    outputs = _stream(["Our SCHEMA_PRO", "GRESS is good"])
    assert outputs == ["Our ", "SCHEMA_PROGRESS is good", ""]


def test_a_marker_not_followed_by_json_is_released_at_the_first_other_character() -> None:
    outputs = _stream(["SUGGESTED_VALUES: ", "\n", "none today"])
    assert outputs == ["", "", "SUGGESTED_VALUES: \nnone today", ""]


@settings(max_examples=100, deadline=None)
@given(text=st.text(alphabet="SCHEMA_PROPOSALUGTDVIN [[tool1]] x\n", max_size=60))
def test_text_without_markers_is_held_back_no_longer_than_a_marker(text: str) -> None:
    # Every marker ends in ":", so none can form here: what is held is an
    # ambiguous tail (a marker beginning, or a `[[tool:` beginning) and no more.
    longest = max(map(len, MARKERS))
    stream, shown = ReplyStreamFilter(MARKERS), ""
    for n, char in enumerate(text, 1):
        shown += stream.feed(char)
        assert n - len(shown.replace("\u200b", "")) <= longest - 1 + len("[[tool")
    assert shown + stream.flush() == text.replace("[[tool:", "[\u200b[tool:")


def test_json_with_braces_and_escaped_quotes_inside_strings_is_withheld_whole() -> None:
    body = json.dumps({"note": 'a "}" and a \\ and {', "n": [1, {"m": None}]})
    assert _shown(f"Before SCHEMA_PROPOSAL: {body} after") == "Before after"


def test_a_fenced_json_block_right_after_the_marker_is_part_of_the_payload() -> None:
    text = 'Proposal:\n\nSCHEMA_PROPOSAL:\n```json\n{"name": "x"}\n```\n\nShall I apply it?'
    assert _shown(text) == "Proposal:\n\nShall I apply it?"


def test_a_marker_inside_a_code_block_is_only_an_example() -> None:
    text = 'Write it like this:\n```\nSCHEMA_PROPOSAL: {"name": "x"}\n```\nThat is all.'
    assert _shown(text) == text


def test_a_marker_after_a_closed_code_block_counts_again() -> None:
    text = '```\ncode\n```\nSCHEMA_PROPOSAL: {"name": "x"}\nDone.'
    assert _shown(text) == "```\ncode\n```\nDone."


def test_a_marker_glued_to_a_word_is_not_a_marker() -> None:
    text = 'MY_SCHEMA_PROPOSAL: {"a": 1}'
    assert _shown(text) == text


def test_after_a_long_line_a_marker_still_counts_only_at_a_word_boundary() -> None:
    # 600 characters with no line break in one delta: the filter keeps only the line's ends.
    line = "word " * 120
    cut = _stream(["Hi ", line, 'SCHEMA_PROPOSAL: {"a": 1}', " Done."])
    glued = _stream(["Hi ", line + "word", 'SCHEMA_PROPOSAL: {"a": 1}'])
    assert "".join(cut) == "Hi " + line + "Done."
    assert "".join(glued) == "Hi " + line + 'wordSCHEMA_PROPOSAL: {"a": 1}'


def test_a_long_closing_fence_line_closes_the_code_block() -> None:
    closing = ["~" * 30] * 10  # 300 tildes, no line break until the end
    deltas = ["~~~\n", "code\n", *closing, "\n", 'SCHEMA_PROPOSAL: {"a": 1}', "\nDone."]
    assert "".join(_stream(deltas)) == "~~~\ncode\n" + "~" * 300 + "\nDone."


def test_a_payload_on_its_own_line_leaves_no_blank_gap() -> None:
    text = 'First paragraph.\n\nSCHEMA_PROPOSAL: {"a": 1}\n\nSecond paragraph.'
    assert _shown(text) == "First paragraph.\n\nSecond paragraph."


def test_a_payload_inside_a_sentence_takes_only_the_spaces_after_it() -> None:
    text = 'See the card: SCHEMA_PROPOSAL: {"a": 1}\n\nNext paragraph.'
    assert _shown(text) == "See the card: \n\nNext paragraph."


def test_unbalanced_json_is_released_at_the_end_of_the_call() -> None:
    outputs = _stream(['SCHEMA_PROPOSAL: {"a": [1, 2', ", 3"])
    assert outputs == ["", "", 'SCHEMA_PROPOSAL: {"a": [1, 2, 3']


def test_unbalanced_json_is_released_as_soon_as_prose_follows() -> None:
    outputs = _stream(['SCHEMA_PROPOSAL: {"a": [1, 2', "\n\nMore"])
    assert outputs == ["", 'SCHEMA_PROPOSAL: {"a": [1, 2\n\nMore', ""]


def test_after_unbalanced_json_a_later_marker_still_counts() -> None:
    text = 'SUGGESTED_ACTIONS: [{"a": 1}\nSUGGESTED_VALUES: ["ok"]'
    assert _shown(text) == 'SUGGESTED_ACTIONS: [{"a": 1}\n'


def test_mismatched_brackets_release_the_text_at_once() -> None:
    assert _stream(['SCHEMA_PROPOSAL: {"a": 1]', " tail"]) == [
        'SCHEMA_PROPOSAL: {"a": 1]',
        " tail",
        "",
    ]


def test_complete_but_malformed_json_stays_as_text() -> None:
    text = 'SCHEMA_PROPOSAL: {"a": 1,} and on'
    assert _shown(text) == text


def test_a_judge_that_rejects_keeps_the_region_as_text() -> None:
    stream = ReplyStreamFilter(MARKERS, judge=lambda marker, body: marker != "SCHEMA_PROPOSAL:")
    text = 'SCHEMA_PROPOSAL: {"a": 1} SUGGESTED_VALUES: ["ok"]'
    assert stream.feed(text) + stream.flush() == 'SCHEMA_PROPOSAL: {"a": 1} '


def test_a_judge_that_raises_keeps_the_region_as_text() -> None:
    def judge(marker: str, body: str | None) -> bool:
        raise RuntimeError("boom")

    stream = ReplyStreamFilter(MARKERS, judge=judge)
    text = 'SCHEMA_PROPOSAL: {"a": 1} end'
    assert stream.feed(text) + stream.flush() == text


def test_the_judge_hears_of_a_marker_without_json() -> None:
    heard: list[tuple[str, str | None]] = []

    def judge(marker: str, body: str | None) -> bool:
        heard.append((marker, body))
        return True

    stream = ReplyStreamFilter(MARKERS, judge=judge)
    stream.feed('SUGGESTED_VALUES: maybe. SCHEMA_PROPOSAL: {"a": 1}')
    stream.flush()
    assert heard == [("SUGGESTED_VALUES:", None), ("SCHEMA_PROPOSAL:", '{"a": 1}')]


def test_each_model_call_starts_afresh() -> None:
    stream = ReplyStreamFilter(MARKERS)
    first = stream.feed("```\nopen code block, SCHEMA_PRO") + stream.flush()
    second = stream.feed('SCHEMA_PROPOSAL: {"a": 1}ok') + stream.flush()
    assert (first, second) == ("```\nopen code block, SCHEMA_PRO", "ok")


def test_tool_markers_written_by_the_model_are_neutralised_even_when_split() -> None:
    shown = "".join(_stream(["See [[to", "ol:2]] above"]))
    assert shown == "See [\u200b[tool:2]] above"


@pytest.mark.parametrize(
    "markers", [["SCHEMA:", "SCHEMA:X"], [""], [" LEADING:"], ["```X:"], ["TWO\nLINES:"]]
)
def test_markers_that_could_not_be_told_apart_are_refused(markers: list[str]) -> None:
    with pytest.raises(ValueError):
        ReplyStreamFilter(markers)
