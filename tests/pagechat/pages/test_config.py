from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from pagechat.pages import ClientAction, PageConfig, PayloadConfig, ServerAction, TabConfig
from pagechat.payloads import Payload
from pagechat.tools import ToolConfig


def _noop(data: dict[str, Any], context: Any) -> None:
    return None


def _tool(name: str) -> ToolConfig:
    return ToolConfig(
        name=name,
        description="A tool.",
        input_schema={"type": "object"},
        executor=lambda params, ctx: "ok",
    )


def test_a_payload_with_a_broken_schema_fails_when_it_is_defined() -> None:
    with pytest.raises(jsonschema.SchemaError):
        PayloadConfig(
            type="p", parse_marker="P:", llm_instructions="...", schema={"type": "no-such-type"}
        )


def test_a_payload_may_not_claim_a_reserved_marker() -> None:
    with pytest.raises(ValueError, match="reserved"):
        PayloadConfig(type="values", parse_marker="SUGGESTED_VALUES:", llm_instructions="...")


def test_relevant_tabs_given_as_a_list_become_a_tuple() -> None:
    payload = PayloadConfig(
        type="p",
        parse_marker="P:",
        llm_instructions="...",
        relevant_tabs=["a", "b"],  # type: ignore[arg-type]
    )
    assert payload.relevant_tabs == ("a", "b")
    assert payload.offered_on("a") and not payload.offered_on("c") and not payload.offered_on(None)


def test_a_page_refuses_two_payloads_with_one_marker() -> None:
    with pytest.raises(ValueError, match="marker"):
        PageConfig(
            "p",
            payloads=(
                PayloadConfig(type="a", parse_marker="P:", llm_instructions=""),
                PayloadConfig(type="b", parse_marker="P:", llm_instructions=""),
            ),
        )


def test_a_page_refuses_a_marker_that_begins_another() -> None:
    with pytest.raises(ValueError, match="beginning"):
        PageConfig(
            "p",
            payloads=(
                PayloadConfig(type="a", parse_marker="PLAN", llm_instructions=""),
                PayloadConfig(type="b", parse_marker="PLAN:", llm_instructions=""),
            ),
        )


def test_a_page_refuses_an_action_that_is_both_client_and_server() -> None:
    with pytest.raises(ValueError, match="apply"):
        PageConfig(
            "p",
            client_actions=(ClientAction("apply", "Apply"),),
            server_actions=(ServerAction("apply", "Apply", _noop),),
        )


def test_a_page_refuses_two_tools_or_tabs_with_one_name() -> None:
    with pytest.raises(ValueError, match="tool"):
        PageConfig("p", tools=(_tool("t"), _tool("t")))
    with pytest.raises(ValueError, match="tab"):
        PageConfig("p", tabs=(TabConfig("a"), TabConfig("a")))


def test_a_page_refuses_a_budget_of_nothing() -> None:
    with pytest.raises(ValueError, match="budget"):
        PageConfig("p", context_budget=0)


def test_close_chat_is_always_the_first_client_action() -> None:
    page = PageConfig("p", client_actions=(ClientAction("switch_tab", "Switch"),))
    assert [a.action for a in page.all_client_actions()] == ["close_chat", "switch_tab"]
    assert page.client_action("close_chat") is not None


def test_payloads_for_a_tab_are_the_unlimited_ones_and_that_tabs_own() -> None:
    everywhere = PayloadConfig(type="a", parse_marker="A:", llm_instructions="")
    retrieval = PayloadConfig(
        type="b", parse_marker="B:", llm_instructions="", relevant_tabs=("retrieval",)
    )
    page = PageConfig("p", payloads=(everywhere, retrieval))
    assert page.payloads_for("retrieval") == (everywhere, retrieval)
    assert page.payloads_for("semantic") == (everywhere,)
    assert page.payloads_for(None) == (everywhere,)


class _Plan(Payload):
    """A plan card."""

    payload_type = "plan"

    steps: int


def test_a_payload_config_for_a_model_takes_its_type_and_schema_from_it() -> None:
    payload = PayloadConfig.for_model(
        _Plan, marker="PLAN:", instructions="Propose a plan.", relevant_tabs=["a"], state_key="plan"
    )

    assert payload == PayloadConfig(
        type="plan",
        parse_marker="PLAN:",
        llm_instructions="Propose a plan.",
        schema=_Plan.payload_schema(),
        relevant_tabs=("a",),
        state_key="plan",
    )


def test_a_payload_config_is_keyword_only() -> None:
    positional: Any = PayloadConfig
    with pytest.raises(TypeError):
        positional("plan", "PLAN:", "Propose a plan.")
