from __future__ import annotations

import itertools
import json
import logging
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagechat.pages import (
    ClientAction,
    PageConfig,
    PayloadConfig,
    ReplyParser,
    ServerAction,
    parse_reply,
    prepare_turn,
    register_page,
)
from pagechat.protocol import CustomPayload, PayloadErrorData, SuggestedAction, SuggestedValue

SCHEMA_PROPOSAL = PayloadConfig(
    type="schema_proposal",
    parse_marker="SCHEMA_PROPOSAL:",
    llm_instructions="Propose a new stream schema.",
    schema={
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
    },
)
ANY_NOTE = PayloadConfig(type="note", parse_marker="NOTE:", llm_instructions="Leave a note.")
RETRIEVAL = PayloadConfig(
    type="retrieval_proposal",
    parse_marker="RETRIEVAL_PROPOSAL:",
    llm_instructions="Propose queries.",
    relevant_tabs=("retrieval",),
)

UI_TOOL_MARKER = re.compile(r"\[\[tool:(\d+)\]\]")


def _noop(data: dict[str, Any], context: Any) -> None:
    return None


@pytest.fixture
def page() -> PageConfig:
    return register_page(
        "edit_stream",
        payloads=[SCHEMA_PROPOSAL, ANY_NOTE, RETRIEVAL],
        client_actions=[ClientAction("switch_tab", "Open a tab", ("tab_name",))],
        server_actions=[ServerAction("apply_schema", "Apply the schema", _noop)],
    )


def test_a_valid_payload_is_cut_out_and_returned(page: PageConfig) -> None:
    reply = parse_reply('Here it is.\n\nSCHEMA_PROPOSAL: {"name": "Oncology"}', page)
    assert reply.message == "Here it is.\n\n"
    assert reply.payloads == [CustomPayload(type="schema_proposal", data={"name": "Oncology"})]
    assert reply.warnings == []


def test_braces_and_escaped_quotes_inside_strings_do_not_end_the_payload(page: PageConfig) -> None:
    body = '{"name": "a } b { c \\" d"}'
    reply = parse_reply(f"SCHEMA_PROPOSAL: {body} Done.", page)
    assert reply.payloads[0].data == {"name": 'a } b { c " d'}
    assert reply.message == "Done."


def test_a_fenced_json_block_after_the_marker_is_read(page: PageConfig) -> None:
    reply = parse_reply('SCHEMA_PROPOSAL:\n```json\n{"name": "x"}\n```\nApply it?', page)
    assert reply.payloads == [CustomPayload(type="schema_proposal", data={"name": "x"})]
    assert reply.message == "Apply it?"


def test_several_payloads_are_kept_in_order(page: PageConfig) -> None:
    text = 'NOTE: {"n": 1}\nSCHEMA_PROPOSAL: {"name": "a"}\nNOTE: [2]\nThat is all.'
    reply = parse_reply(text, page)
    assert [(p.type, p.data) for p in reply.payloads] == [
        ("note", {"n": 1}),
        ("schema_proposal", {"name": "a"}),
        ("note", [2]),
    ]
    assert reply.message == "That is all."


def test_a_payload_that_breaks_its_schema_becomes_an_error_card_not_text(
    page: PageConfig, caplog: pytest.LogCaptureFixture
) -> None:
    text = 'Here. SCHEMA_PROPOSAL: {"title": "no name"} Done.'
    with caplog.at_level(logging.WARNING):
        reply = parse_reply(text, page)
    assert reply.message == "Here. Done."
    [card] = reply.payloads
    assert card.type == "payload_error"
    error = PayloadErrorData.model_validate(card.data)
    assert error.payload_type == "schema_proposal"
    assert "\n" not in error.reason and "schema proposal" in error.reason
    assert "'name' is a required property" in error.details and '"no name"' in error.details
    assert "does not match its schema" in caplog.text


def test_malformed_json_becomes_an_error_card_not_text(page: PageConfig) -> None:
    reply = parse_reply('SCHEMA_PROPOSAL: {"name": "x",} and on', page)
    assert reply.message == "and on"
    assert [p.type for p in reply.payloads] == ["payload_error"]
    assert "not valid JSON" in PayloadErrorData.model_validate(reply.payloads[0].data).reason


def test_a_payload_cut_off_at_the_end_of_the_call_becomes_an_error_card(page: PageConfig) -> None:
    parser = ReplyParser(page)
    shown = parser.feed('Proposal:\nSCHEMA_PROPOSAL: {"name": "Onc') + parser.flush()
    reply = parser.result()
    assert shown == reply.message == "Proposal:\n"
    assert [p.type for p in reply.payloads] == ["payload_error"]
    assert "cut off" in PayloadErrorData.model_validate(reply.payloads[0].data).reason


REPAIRABLE = PayloadConfig(
    type="plan",
    parse_marker="PLAN:",
    llm_instructions="Propose a plan.",
    schema={
        "type": "object",
        "properties": {
            "steps": {"type": "integer"},
            "ready": {"type": "boolean"},
            "owner": {"type": "string"},
            "note": {"type": "string", "default": ""},
        },
        "required": ["steps"],
        "additionalProperties": False,
    },
)


def test_a_payload_slightly_off_its_schema_is_repaired() -> None:
    page = PageConfig("p", payloads=(REPAIRABLE,))
    text = 'PLAN: {"steps": "3", "ready": "true", "owner": null, "colour": "red"}'
    reply = parse_reply(text, page)
    assert reply.payloads == [
        CustomPayload(type="plan", data={"steps": 3, "ready": True, "note": ""})
    ]
    assert (reply.message, reply.warnings) == ("", [])


def test_a_payload_whose_meaning_is_open_is_not_guessed() -> None:
    page = PageConfig("p", payloads=(REPAIRABLE,))
    reply = parse_reply('PLAN: {"steps": "three"}', page)
    assert [p.type for p in reply.payloads] == ["payload_error"]


def test_a_marker_followed_by_no_json_is_a_mention_and_stays_text(page: PageConfig) -> None:
    text = "I can write a SCHEMA_PROPOSAL: card if you like."
    assert parse_reply(text, page).message == text


def test_a_marker_of_another_page_is_plain_text(page: PageConfig) -> None:
    register_page("other")
    text = 'SCHEMA_PROPOSAL: {"name": "x"}'
    assert parse_reply(text, "other").message == text


def test_a_payload_limited_to_another_tab_is_not_parsed(page: PageConfig) -> None:
    text = 'RETRIEVAL_PROPOSAL: {"q": "crispr"}'
    on_semantic = parse_reply(text, page, active_tab="semantic")
    on_retrieval = parse_reply(text, page, active_tab="retrieval")
    assert (on_semantic.message, on_semantic.payloads) == (text, [])
    assert on_retrieval.payloads == [CustomPayload(type="retrieval_proposal", data={"q": "crispr"})]


def test_a_turn_setup_brings_its_page_and_tab(page: PageConfig) -> None:
    setup = prepare_turn({"current_page": "edit_stream", "active_tab": "retrieval"}, is_admin=False)
    reply = parse_reply('RETRIEVAL_PROPOSAL: {"q": "x"}', setup)
    assert [p.type for p in reply.payloads] == ["retrieval_proposal"]


def test_suggested_values_become_chips(page: PageConfig) -> None:
    text = 'Shall I?\nSUGGESTED_VALUES: [{"label": "Yes", "value": "yes please"}, "No"]'
    reply = parse_reply(text, page)
    assert reply.suggested_values == [
        SuggestedValue(label="Yes", value="yes please"),
        SuggestedValue(label="No", value="No"),
    ]
    assert reply.message == "Shall I?\n"


def test_a_malformed_suggested_value_is_dropped_and_the_rest_kept(page: PageConfig) -> None:
    reply = parse_reply('SUGGESTED_VALUES: [{"label": ""}, "Fine"]', page)
    assert reply.suggested_values == [SuggestedValue(label="Fine", value="Fine")]
    assert "dropped" in reply.warnings[0]


def test_suggested_values_that_are_not_an_array_are_dropped_with_a_warning(
    page: PageConfig,
) -> None:
    reply = parse_reply('Pick. SUGGESTED_VALUES: {"label": "Yes"}', page)
    assert (reply.message, reply.suggested_values) == ("Pick. ", None)
    assert "not a JSON array" in reply.warnings[0]


def test_registered_client_and_server_actions_are_kept(page: PageConfig) -> None:
    actions = [
        {"label": "Apply", "action": "apply_schema", "handler": "server", "data": {"id": 1}},
        {"label": "Retrieval tab", "action": "switch_tab", "handler": "client", "style": "primary"},
    ]
    reply = parse_reply(f"SUGGESTED_ACTIONS: {json.dumps(actions)}", page)
    assert reply.suggested_actions == [SuggestedAction.model_validate(a) for a in actions]
    assert reply.message == ""


def test_close_chat_is_an_action_of_every_page() -> None:
    text = 'SUGGESTED_ACTIONS: [{"label": "Close", "action": "close_chat", "handler": "client"}]'
    reply = parse_reply(text, PageConfig(page="a-page-without-actions"))
    assert reply.suggested_actions is not None
    assert [a.action for a in reply.suggested_actions] == ["close_chat"]


def test_an_unknown_action_is_dropped_with_a_warning(page: PageConfig) -> None:
    text = 'SUGGESTED_ACTIONS: [{"label": "Hack", "action": "delete_all", "handler": "server"}]'
    reply = parse_reply(text, page)
    assert reply.suggested_actions is None
    assert reply.message == ""
    assert "'delete_all'" in reply.warnings[0]


def test_an_action_with_the_wrong_handler_is_dropped(page: PageConfig) -> None:
    text = 'SUGGESTED_ACTIONS: [{"label": "Apply", "action": "apply_schema", "handler": "client"}]'
    assert parse_reply(text, page).suggested_actions is None


def test_an_action_without_a_handler_gets_the_one_it_is_registered_with(page: PageConfig) -> None:
    text = 'SUGGESTED_ACTIONS: [{"label": "Apply", "action": "apply_schema"}]'
    reply = parse_reply(text, page)
    assert reply.suggested_actions is not None
    assert reply.suggested_actions[0].handler == "server"


def test_an_invalid_choices_block_is_reported_and_left_alone(page: PageConfig) -> None:
    text = (
        'Pick:\n```choices\n{"question": "Which?", "options": [{"label": "A", "value": "a"}]}\n```'
    )
    reply = parse_reply(text, page)
    assert reply.message == text
    assert "choices block is not valid" in reply.warnings[0]


def test_a_valid_choices_block_stays_without_warning(page: PageConfig) -> None:
    options = [{"label": "RSS", "value": "rss"}, {"label": "Agent", "value": "agentic"}]
    block = "```choices\n" + json.dumps({"question": "How?", "options": options}) + "\n```"
    reply = parse_reply(f"Pick one:\n{block}", page)
    assert (reply.message, reply.warnings) == (f"Pick one:\n{block}", [])


def test_tool_markers_written_by_the_model_can_never_become_tool_cards(page: PageConfig) -> None:
    reply = parse_reply("As shown in [[tool:0]], and [[tool:12]].", page)
    assert UI_TOOL_MARKER.search(reply.message) is None
    assert reply.message.replace("\u200b", "") == "As shown in [[tool:0]], and [[tool:12]]."


def test_streaming_over_several_calls_gathers_everything(page: PageConfig) -> None:
    parser = ReplyParser(page)
    shown = [parser.feed("Searching. "), parser.feed('NOTE: {"n": 1}'), parser.flush()]
    shown += [parser.feed('SUGGESTED_VALUES: ["More"]'), parser.feed(" Done."), parser.flush()]
    result = parser.result()
    assert "".join(shown) == result.message == "Searching. Done."
    assert [p.data for p in result.payloads] == [{"n": 1}]
    assert result.suggested_values == [SuggestedValue(label="More", value="More")]


# --- properties ----------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
payload_data = st.dictionaries(st.text(max_size=6), json_values, max_size=4) | st.lists(
    json_values, max_size=4
)
prose = st.text(alphabet="abcdefghij .,!?\n", max_size=30)

FRAGMENTS = [
    "Text ",
    "\n\n",
    "SCHEMA_PROPOSAL: ",
    'SCHEMA_PROPOSAL: {"name": "ok"}',
    'SCHEMA_PROPOSAL: {"nope": 1}',
    "NOTE:",
    "NOTE: [1, 2]",
    'SUGGESTED_VALUES: ["a", {"label": ""}]',
    'SUGGESTED_ACTIONS: [{"label": "x", "action": "close_chat"}, {"label": "y", "action": "zz"}]',
    "```json\n",
    "```\n",
    "```choices\n",
    "{",
    "}",
    "]",
    '"',
    "[[tool:3]]",
]
replies = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=5), max_size=20).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=st.text() | replies)
def test_parsing_never_fails_whatever_the_model_wrote(text: str) -> None:
    page = PageConfig("p", payloads=(SCHEMA_PROPOSAL, ANY_NOTE))
    reply = parse_reply(text, page)
    assert UI_TOOL_MARKER.search(reply.message) is None


@settings(max_examples=200, deadline=None)
@given(
    data=payload_data,
    before=prose,
    after=prose,
    style=st.sampled_from(["compact", "indented", "fenced"]),
)
def test_a_valid_payload_round_trips(data: Any, before: str, after: str, style: str) -> None:
    page = PageConfig("p", payloads=(ANY_NOTE,))
    body = json.dumps(data, indent=2 if style == "indented" else None)
    region = f"NOTE:\n```json\n{body}\n```" if style == "fenced" else f"NOTE: {body}"
    reply = parse_reply(f"{before} {region}{after}", page)
    assert reply.payloads == [CustomPayload(type="note", data=data)]
    # Spaces after the payload go with it; line breaks too when it began its line.
    line = (before + " ").rsplit("\n", 1)[-1]
    assert reply.message == before + " " + after.lstrip(" \t" if line.strip() else " \t\r\n")


@settings(max_examples=200, deadline=None)
@given(text=replies, cuts=st.lists(st.integers(min_value=0), max_size=10))
def test_the_streamed_text_is_the_final_message_however_it_is_split(
    text: str, cuts: list[int]
) -> None:
    page = PageConfig("p", payloads=(SCHEMA_PROPOSAL, ANY_NOTE))
    points = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    parser = ReplyParser(page)
    shown = [parser.feed(text[a:b]) for a, b in itertools.pairwise(points)]
    shown.append(parser.flush())
    whole = parse_reply(text, page)
    assert "".join(shown) == whole.message
    assert parser.result() == whole


@settings(max_examples=200, deadline=None)
@given(data=payload_data, before=prose, after=prose)
def test_a_payload_marker_with_json_never_stays_in_the_answer(
    data: Any, before: str, after: str
) -> None:
    page = PageConfig("p", payloads=(SCHEMA_PROPOSAL,))
    reply = parse_reply(f"{before} SCHEMA_PROPOSAL: {json.dumps(data)}{after}", page)
    assert "SCHEMA_PROPOSAL" not in reply.message
    [card] = reply.payloads
    assert card.type in ("schema_proposal", "payload_error")
    if card.type == "schema_proposal":
        assert isinstance(card.data, dict) and isinstance(card.data["name"], str)
