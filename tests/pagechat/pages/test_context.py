from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from pagechat.pages import CONTEXT_FAILED_NOTE, PageConfig, page_context_block, page_context_in
from pagechat.pages.context import apply_budget, render_page_context


def test_the_builder_turns_page_state_into_text() -> None:
    page = PageConfig("reports", context_builder=lambda ctx: f"Report {ctx['report_id']} is open.")
    assert render_page_context(page, {"report_id": 7}) == ("Report 7 is open.", False)


def test_text_past_the_budget_is_cut_with_a_visible_note() -> None:
    page = PageConfig("p", context_builder=lambda ctx: "x" * 120, context_budget=100)
    text, cut = render_page_context(page, {})
    assert cut
    assert text.startswith("x" * 100 + "\n[Page context cut here")
    assert "100 of 120 characters" in text
    assert "x" * 101 not in text


def test_text_within_the_budget_is_kept_whole() -> None:
    assert apply_budget("y" * 100, 100) == ("y" * 100, False)


def test_a_builder_that_raises_gives_a_short_note_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(ctx: dict[str, Any]) -> str:
        raise KeyError("report_id")

    with caplog.at_level(logging.ERROR):
        text, cut = render_page_context(PageConfig("reports", context_builder=broken), {})
    assert (text, cut) == (CONTEXT_FAILED_NOTE, False)
    assert "reports" in caplog.text and "KeyError" in caplog.text


def test_without_a_builder_the_page_state_is_shown_as_json() -> None:
    context = {"current_page": "x", "active_tab": "t", "report_id": 7, "filters": ["a"]}
    text, _ = render_page_context(PageConfig("x"), context)
    assert text.startswith("Page state:\n")
    assert json.loads(text.removeprefix("Page state:\n")) == {"report_id": 7, "filters": ["a"]}


def test_without_a_builder_and_no_state_there_is_no_context() -> None:
    assert render_page_context(PageConfig("x"), {"current_page": "x"}) == ("", False)


def test_a_builder_cannot_change_the_request_context() -> None:
    def greedy(ctx: dict[str, Any]) -> str:
        ctx.clear()
        return "ok"

    context = {"report_id": 7}
    render_page_context(PageConfig("p", context_builder=greedy), context)
    assert context == {"report_id": 7}


def test_the_prompts_page_context_block_is_found_again() -> None:
    prompt = f"intro\n{page_context_block('Page: x')}\nPage: y"
    assert prompt == "intro\n<page_context>\nPage: x\n</page_context>\nPage: y"
    assert page_context_in(prompt) == "Page: x"


def test_a_prompt_without_a_page_context_block_has_none() -> None:
    assert page_context_in("no context here") == ""


def test_a_block_that_is_not_closed_runs_to_the_end() -> None:
    assert page_context_in("intro\n<page_context>\nPage: x\nTab: y\n") == "Page: x\nTab: y"
