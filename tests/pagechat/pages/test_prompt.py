from __future__ import annotations

from typing import Any

from pagechat.pages import (
    ClientAction,
    PageConfig,
    PayloadConfig,
    ServerAction,
    TabConfig,
)
from pagechat.pages.prompt import FORMAT_RULES, build_system_prompt, stable_prompt


def _noop(data: dict[str, Any], context: Any) -> None:
    return None


PAGE = PageConfig(
    "edit_stream",
    payloads=(
        PayloadConfig(
            type="schema_proposal",
            parse_marker="SCHEMA_PROPOSAL:",
            llm_instructions="PROPOSE SCHEMAS LIKE THIS.",
        ),
        PayloadConfig(
            type="retrieval",
            parse_marker="RETRIEVAL:",
            llm_instructions="PROPOSE QUERIES.",
            relevant_tabs=("retrieval",),
        ),
    ),
    client_actions=(ClientAction("switch_tab", "Open another tab.", ("tab_name",)),),
    server_actions=(ServerAction("apply_schema", "Apply the proposed schema.", _noop),),
    tabs=(TabConfig("retrieval", instructions="THE RETRIEVAL TAB PERSONA."),),
    instructions="YOU ARE A STREAM EDITOR.",
)


def _prompt(tab: str | None = None, page: PageConfig = PAGE, context: str = "PAGE STATE.") -> str:
    return build_system_prompt(
        base_instructions="BASE RULES.",
        page=page,
        active_tab=tab,
        context_text=context,
        payloads=page.payloads_for(tab),
    )


def test_the_sections_come_in_the_documented_order() -> None:
    prompt = _prompt("retrieval")
    pieces = [
        "BASE RULES.",
        "YOU ARE A STREAM EDITOR.",
        "THE RETRIEVAL TAB PERSONA.",
        "PROPOSE SCHEMAS LIKE THIS.",
        "PROPOSE QUERIES.",
        "## Actions you may suggest",
        FORMAT_RULES,
        "PAGE STATE.",
    ]
    positions = [prompt.index(p) for p in pieces]
    assert positions == sorted(positions)
    assert prompt.startswith("BASE RULES.")
    assert prompt.endswith("<page_context>\nPAGE STATE.\n</page_context>")


def test_the_prompt_before_the_page_context_is_the_same_whatever_the_page_shows() -> None:
    first, second = _prompt("retrieval", context="ONE STATE."), _prompt("retrieval", context="TWO.")
    stable = stable_prompt(
        base_instructions="BASE RULES.",
        page=PAGE,
        active_tab="retrieval",
        payloads=PAGE.payloads_for("retrieval"),
    )
    assert first.startswith(stable + "\n\n## Page context") and second.startswith(stable)
    assert "ONE STATE." not in stable and first != second


def test_the_context_names_the_page_and_tab_and_is_marked_as_data() -> None:
    prompt = _prompt("retrieval")
    assert 'The user is on the "edit_stream" page, tab "retrieval".' in prompt
    assert "<page_context>\nPAGE STATE.\n</page_context>" in prompt


def test_payload_instructions_are_those_of_the_active_tab_only() -> None:
    prompt = _prompt("semantic")
    assert "Marker: SCHEMA_PROPOSAL:" in prompt and "PROPOSE SCHEMAS LIKE THIS." in prompt
    assert "RETRIEVAL:" not in prompt and "THE RETRIEVAL TAB PERSONA." not in prompt


def test_the_actions_list_close_chat_and_the_page_actions_with_their_handlers() -> None:
    prompt = _prompt()
    actions = prompt[prompt.index("## Actions you may suggest") : prompt.index(FORMAT_RULES)]
    assert "- close_chat: Close the chat tray." in actions
    assert "- switch_tab (data: tab_name): Open another tab." in actions
    assert 'Handled by the server (handler "server"):\n- apply_schema:' in actions


def test_a_bare_page_gets_base_context_actions_and_formats_only() -> None:
    prompt = _prompt(page=PageConfig(""), context="")
    assert "## This page" not in prompt and "## Structured proposals" not in prompt
    assert "The page the user is on is not known." in prompt
    assert "<page_context>" not in prompt
    assert "- close_chat" in prompt and "Handled by the server" not in prompt


def test_the_format_rules_teach_every_reserved_marker_and_choices() -> None:
    for needle in ("SUGGESTED_VALUES: [", "SUGGESTED_ACTIONS: [", "choices", "present_choices"):
        assert needle in FORMAT_RULES
    assert "[[tool:1]]" in FORMAT_RULES  # and that it must not be written
