from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pagechat.store.titles import DEFAULT_TITLE, TITLE_CHARS, make_title


def test_a_short_message_is_its_own_title() -> None:
    assert make_title("  What is   base editing?\n") == "What is base editing?"


def test_a_long_message_is_cut_at_a_word_with_an_ellipsis() -> None:
    message = "Summarize the newest papers on prime editing efficiency in primary T cells please"

    assert make_title(message) == "Summarize the newest papers on prime editing efficiency in…"


def test_punctuation_before_the_cut_is_dropped() -> None:
    assert (
        make_title("word, " * 20) == "word, word, word, word, word, word, word, word, word, word…"
    )


def test_one_enormous_word_is_cut_mid_word() -> None:
    assert make_title("x" * 500) == "x" * (TITLE_CHARS - 1) + "…"


def test_a_blank_message_gets_a_default_title() -> None:
    assert make_title(" \n\t ") == DEFAULT_TITLE


@given(st.text())
def test_a_title_is_one_short_line_taken_from_the_message(message: str) -> None:
    title = make_title(message)
    flat = " ".join(message.split())

    assert 0 < len(title) <= TITLE_CHARS
    assert "\n" not in title
    if flat:
        assert title == flat or (title.endswith("…") and flat.startswith(title[:-1]))
