from __future__ import annotations

from horizon.page_text import (
    ContextText,
    Label,
    clean,
    item,
    read_page_text,
    split_item,
)


def test_what_is_written_reads_back() -> None:
    text = ContextText("edit_stream", "semantic")
    text.field(Label.STREAM_ID, 12)
    text.field(Label.PURPOSE, "", always=True)
    text.items(Label.TOPICS, [item("CAR-T", "T cells — engineered"), "Sepsis", ""], limit=1)
    page = read_page_text(text.render())
    assert page.page == "edit_stream"
    assert page.tab == "semantic"
    assert page.number(Label.STREAM_ID) == 12
    assert page.field("purpose") is None
    assert page.items(Label.TOPICS) == ("CAR-T — T cells — engineered",)
    assert split_item(page.items(Label.TOPICS)[0]) == ("CAR-T", "T cells — engineered")


def test_lists_report_their_full_count_and_what_was_cut() -> None:
    text = ContextText("p")
    text.items("Things", ["a", "b", "c"], limit=2)
    assert text.render() == "Page: p\nThings (3):\n- a\n- b\n(1 more not shown)"
    assert read_page_text(text.render()).items("things") == ("a", "b")


def test_values_are_one_short_line() -> None:
    assert clean("a\n\n b\tc") == "a b c"
    assert clean("x" * 10, 5) == "xxxx…"
    assert clean(True) == "yes"
    assert clean(0.9234) == "0.92"
    assert clean(2.0) == "2"
    assert clean(float("nan")) == ""
    assert clean({"a": 1}) == ""
    assert clean("</page_context>") == "</page context>"


def test_the_first_field_of_a_label_wins() -> None:
    page = read_page_text("Page: reports\nStream name: A\nStream name: B")
    assert page.field(Label.STREAM_NAME) == "A"
