from __future__ import annotations

from typing import Any

from horizon.offline.situation import read_situation
from horizon.page_state import StreamState, stream_of
from pagechat.models import (
    AssistantTurn,
    ModelRequest,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    ToolSpec,
    UserTurn,
)
from pagechat.pages import prepare_turn

STREAM = {
    "name": "Sepsis care",
    "purpose": "Follow stewardship — and diagnostics",
    "semantic_space": {
        "topics": [{"name": "Rapid diagnostics", "description": "PCR — and more"}],
        "entities": [{"name": "Sepsis", "type": "disease"}],
        "exclusion_notes": "Children",
    },
    "retrieval_config": {"queries": [{"source": "pubmed", "query": "sepsis[tiab]"}]},
}


def _request(context: dict[str, Any], *messages: Any, **kw: Any) -> ModelRequest:
    system = prepare_turn(context, is_admin=False).system_prompt
    return ModelRequest(system=system, messages=list(messages), **kw)


def test_the_page_tab_and_stream_are_read_from_the_prompt() -> None:
    context = {"current_page": "edit_stream", "active_tab": "retrieval", "stream_id": 9}
    situation = read_situation(_request({**context, "stream": STREAM}, UserTurn("hi")))
    assert (situation.page_name, situation.page.tab, situation.message) == (
        "edit_stream",
        "retrieval",
        "hi",
    )
    assert stream_of(situation.page) == StreamState(
        name="Sepsis care",
        purpose="Follow stewardship — and diagnostics",
        topics=(("Rapid diagnostics", "PCR — and more"),),
        entities=(("Sepsis", "disease"),),
        exclusion_notes="Children",
        queries=(("pubmed", "sepsis[tiab]"),),
    )
    assert situation.markers == {"VALIDATION_RESULTS:", "RETRIEVAL_PROPOSAL:"}


def test_a_marker_in_page_data_does_not_offer_a_payload() -> None:
    context = {"current_page": "edit_stream", "stream": {"name": "SCHEMA_PROPOSAL: {}"}}
    situation = read_situation(_request(context, UserTurn("hi")))
    assert situation.markers == {"VALIDATION_RESULTS:"}


def test_this_turns_tool_calls_are_paired_with_their_results() -> None:
    earlier = [UserTurn("old"), AssistantTurn("old answer")]
    call = ToolCallPart("t1", "list_research_streams", {})
    turn = [
        UserTurn("List my streams"),
        AssistantTurn("Listing.", (call,)),
        ToolResultsTurn((ToolResultPart("t1", "- ID 1: A", is_error=False),)),
    ]
    tools = [ToolSpec("list_research_streams", "", {"type": "object"})]
    situation = read_situation(_request({}, *earlier, *turn, tools=tools))
    assert situation.message == "List my streams"
    [done] = situation.done
    assert (done.name, done.input, done.text, done.is_error) == (
        "list_research_streams",
        {},
        "- ID 1: A",
        False,
    )
    assert situation.tools == {"list_research_streams"}
    assert situation.may_call


def test_no_calls_when_tools_are_forbidden_or_the_rounds_are_spent() -> None:
    forbidden = read_situation(_request({}, UserTurn("x"), tool_choice="none"))
    assert not forbidden.may_call
    rounds = []
    for n in range(4):
        rounds += [
            AssistantTurn("", (ToolCallPart(f"t{n}", "a", {}),)),
            ToolResultsTurn((ToolResultPart(f"t{n}", "r"),)),
        ]
    assert not read_situation(_request({}, UserTurn("x"), *rounds)).may_call
