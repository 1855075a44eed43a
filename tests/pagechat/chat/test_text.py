"""Model and tool text is made storable: NULs and lone surrogates become U+FFFD, nothing else."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pagechat.chat.text import storable, storable_text


@given(st.text())
def test_any_text_becomes_encodable_and_free_of_nul(text: str) -> None:
    clean = storable_text(text)

    clean.encode()
    assert "\x00" not in clean


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00")))
def test_text_that_could_already_be_stored_is_left_as_it_is(text: str) -> None:
    assert storable_text(text) == text


def test_every_string_of_a_tool_input_is_cleaned_keys_included() -> None:
    value = {"q\x00": ["a\ud800", {"n": 1, "s": "b\x00"}], "ok": True}

    assert storable(value) == {"q\ufffd": ["a\ufffd", {"n": 1, "s": "b\ufffd"}], "ok": True}
