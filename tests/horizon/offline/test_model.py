from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horizon.offline import OFFLINE_NOTE, OfflineModel
from horizon.offline.model import chunks
from horizon.pubmed import rank_records
from pagechat.models import (
    AssistantTurn,
    ModelMessage,
    ModelRequest,
    ModelToolCall,
    TextDelta,
    UserTurn,
)
from pagechat.pages import find_choice_blocks, prepare_turn

from .harness import CORPUS, REPORT_ID, REPORT_PMIDS, STREAMS, TOOLS, converse

STREAM = {
    "name": "Cancer immunotherapy",
    "purpose": "Track clinical advances in CAR-T cell therapy and immune checkpoint inhibitors "
    "for solid tumours such as glioblastoma and melanoma",
    "semantic_space": {
        "topics": [{"name": "CAR-T cell therapy", "description": "Engineered T cells"}],
        "entities": [{"name": "PD-1", "type": "protein"}],
    },
}


def _edit(tab: str | None, stream: dict[str, Any] = STREAM) -> dict[str, Any]:
    return {"current_page": "edit_stream", "active_tab": tab, "stream_id": 1, "stream": stream}


REPORTS_PAGE = {
    "current_page": "reports",
    "report_id": REPORT_ID,
    "articles": [{"pmid": p, "title": "t"} for p in REPORT_PMIDS],
}


def _chips(turn: Any) -> list[str]:
    return [v.value for v in turn.reply.suggested_values or []]


async def test_finding_articles_searches_pubmed_and_lists_the_best() -> None:
    turn = await converse("Find articles on CRISPR base editing")
    assert turn.calls == [("search_pubmed", {"query": "CRISPR base editing", "max_results": 10})]
    best = rank_records(CORPUS, "CRISPR base editing", 10)
    assert turn.message.startswith("Searching PubMed for “CRISPR base editing”.\n\n")
    assert f"1. **{best[0].title} ({best[0].journal}, {best[0].year})** (PMID {best[0].pmid})" in (
        turn.message
    )
    assert f"(PMID {best[4].pmid})" in turn.message
    assert f"(PMID {best[5].pmid})" not in turn.message
    assert _chips(turn) == [f"Tell me more about PMID {r.pmid}" for r in best[:3]]
    assert turn.reply.warnings == []


async def test_a_suggested_pmid_is_looked_up() -> None:
    record = CORPUS[3]
    turn = await converse(f"Tell me more about PMID {record.pmid}")
    assert turn.calls == [("get_pubmed_article", {"pmid": record.pmid})]
    assert f"**{record.title}**" in turn.message
    assert f"{record.journal} · {record.year}" in turn.message
    assert _chips(turn)[0].startswith("Find articles on ")


async def test_this_article_means_the_one_on_the_page() -> None:
    record = CORPUS[5]
    context = {"current_page": "article", "article": {"pmid": record.pmid, "title": record.title}}
    turn = await converse("Tell me about this article", context)
    assert turn.calls == [("get_pubmed_article", {"pmid": record.pmid})]


async def test_on_the_reports_page_an_article_answer_offers_to_open_it() -> None:
    pmid = REPORT_PMIDS[0]
    turn = await converse(f"What is PMID {pmid} about?", REPORTS_PAGE)
    assert turn.reply.suggested_actions is not None
    action = turn.reply.suggested_actions[0]
    assert (action.action, action.handler, action.data) == (
        "open_article",
        "client",
        {"pmid": pmid},
    )


async def test_summarising_a_report_reads_the_summary_then_its_articles() -> None:
    turn = await converse("Summarise this report", REPORTS_PAGE)
    assert turn.calls == [
        ("get_report_summary", {"report_id": REPORT_ID}),
        ("get_report_articles", {"report_id": REPORT_ID, "limit": 10}),
    ]
    assert "**Key highlights:** Two checkpoint inhibitor trials report longer survival." in (
        turn.message
    )
    assert f"(PMID {REPORT_PMIDS[0]})" in turn.message
    assert _chips(turn)[-1] == f"Compare PMID {REPORT_PMIDS[0]} and PMID {REPORT_PMIDS[1]}"


async def test_summarising_without_a_report_says_to_open_one() -> None:
    turn = await converse("Summarise this report", {"current_page": "reports"})
    assert turn.calls == []
    assert turn.message.startswith("Open a report first")


async def test_with_one_tool_round_the_summary_answers_from_what_it_has() -> None:
    turn = await converse("Summarise this report", REPORTS_PAGE, max_iterations=1)
    assert [name for name, _ in turn.calls] == ["get_report_summary"]
    assert "**Thematic summary:** Immunotherapy dominates" in turn.message


async def test_listing_streams_offers_their_details() -> None:
    turn = await converse("List my streams", {"current_page": "streams"})
    assert turn.calls == [("list_research_streams", {})]
    assert "- ID 2: Heart failure therapies — Drug and device therapy for heart failure" in (
        turn.message
    )
    assert _chips(turn) == [f"Show details of stream {i}" for i in STREAMS]


async def test_details_of_this_stream_use_the_stream_on_the_page() -> None:
    turn = await converse("Show me the details of this stream", _edit("semantic"))
    assert turn.calls == [("get_stream_details", {"stream_id": 1})]
    assert "- **Topics:** Immune checkpoint inhibitors, CAR-T cell therapy" in turn.message


async def test_details_of_a_named_stream() -> None:
    turn = await converse("Show details of stream 3")
    assert turn.calls == [("get_stream_details", {"stream_id": 3})]
    assert "- **Name:** Gene editing" in turn.message


async def test_details_without_a_stream_ask_which_one() -> None:
    turn = await converse("Describe a stream")
    assert turn.calls == [("list_research_streams", {})]
    [block] = find_choice_blocks(turn.message)
    assert block.valid
    assert [o.value for o in block.options] == [f"Show details of stream {i}" for i in STREAMS]


async def test_searching_reports() -> None:
    turn = await converse("Search my reports for checkpoint inhibitors")
    assert turn.calls == [
        ("search_articles_in_reports", {"query": "checkpoint inhibitors", "limit": 10})
    ]
    assert "Articles in your reports about “checkpoint inhibitors”:" in turn.message


async def test_a_schema_proposal_on_the_semantic_tab_is_a_valid_payload() -> None:
    turn = await converse("Propose a schema for this stream", _edit("semantic"))
    assert turn.calls == []
    kind, data = turn.payload
    assert kind == "schema_proposal"
    topics = [t["name"] for t in data["proposed_changes"]["topics"]]
    assert topics[0] == "CAR-T cell therapy"  # the current topic is kept, first
    assert {"Immune checkpoint inhibitors", "Solid tumours", "Glioblastoma"} <= set(topics)
    entities = {e["name"]: e["type"] for e in data["proposed_changes"]["entities"]}
    assert entities["PD-1"] == "protein"
    assert entities["Melanoma"] == "disease"
    assert data["confidence"] == "medium"
    assert turn.message.startswith("A proposal for the semantic space")
    assert "SCHEMA_PROPOSAL" not in turn.message
    assert turn.reply.warnings == []


async def test_a_stream_without_name_or_purpose_gets_no_proposal() -> None:
    turn = await converse("Improve the semantic space", _edit("semantic", {}))
    assert turn.reply.payloads == []
    assert turn.message == "Give the stream a name and a purpose first: I draft from them."


async def test_a_schema_ask_on_another_tab_offers_to_switch_tab() -> None:
    turn = await converse("Propose a schema", _edit("retrieval"))
    assert turn.reply.payloads == []
    assert turn.reply.suggested_actions is not None
    [action] = turn.reply.suggested_actions
    assert (action.action, action.data) == (
        "switch_tab",
        {"tab_name": "semantic", "then": "Propose a schema"},
    )


async def test_retrieval_queries_on_the_retrieval_tab() -> None:
    turn = await converse("Suggest retrieval queries", _edit("retrieval"))
    kind, data = turn.payload
    assert kind == "retrieval_proposal"
    [query] = data["queries"]
    assert query["source"] == "pubmed"
    assert query["query"].startswith('("CAR-T cell therapy"[Title/Abstract])')


async def test_categories_on_the_presentation_tab() -> None:
    turn = await converse("Which categories should I use?", _edit("presentation"))
    kind, data = turn.payload
    assert kind == "presentation_categories"
    names = [c["name"] for c in data["categories"]]
    assert names == ["CAR-T cell therapy", "Reviews and guidelines", "Other"]


async def test_validating_an_edited_stream() -> None:
    turn = await converse("Validate this stream", _edit("presentation"))
    kind, data = turn.payload
    assert kind == "validation_results"
    assert {"field": "queries", "message": "No retrieval query: the stream will find nothing."} in (
        data["errors"]
    )
    assert turn.message == f"I checked the stream: {data['summary']}.\n\n"


async def test_validating_a_new_stream_draft() -> None:
    turn = await converse("Is my draft ready?", {"current_page": "new_stream", "stream": STREAM})
    kind, data = turn.payload
    assert kind == "validation_feedback"
    assert data["ready"] is True
    assert "it is ready to create" in turn.message


async def test_topic_suggestions_leave_out_the_drafts_topics() -> None:
    context = {"current_page": "new_stream", "stream": STREAM}
    turn = await converse("Suggest topics", context)
    kind, data = turn.payload
    assert kind == "topic_suggestions"
    names = [t["name"].casefold() for t in data["topics"]]
    assert "car-t cell therapy" not in names
    assert "immune checkpoint inhibitors" in names


async def test_a_template_for_an_area() -> None:
    turn = await converse("Suggest a template for gene editing", {"current_page": "new_stream"})
    kind, data = turn.payload
    assert kind == "stream_template"
    assert data["name"] == "Gene editing"
    assert [t["name"] for t in data["topics"]][:3] == [
        "Gene editing",
        "Base editing",
        "Prime editing",
    ]


async def test_a_template_without_an_area_asks_for_one_with_choices() -> None:
    turn = await converse("Suggest a template", {"current_page": "new_stream"})
    [block] = find_choice_blocks(turn.message)
    assert block.valid
    follow_up = await converse(block.options[0].value, {"current_page": "new_stream"})
    assert follow_up.payload[0] == "stream_template"


async def test_stream_suggestions_and_portfolio_on_the_streams_page() -> None:
    streams = [
        {"id": 1, "name": "Cancer immunotherapy", "topics": ["PD-1 inhibitors"], "report_count": 3},
        {"id": 2, "name": "Melanoma immunotherapy", "topics": ["PD-1"], "report_count": 0},
    ]
    context = {"current_page": "streams", "streams": streams}
    ideas = await converse("Suggest new streams", context)
    kind, data = ideas.payload
    assert kind == "stream_suggestions"
    assert "Oncology monitor" not in [s["name"] for s in data["suggestions"]]
    insights = await converse("Give me portfolio insights", context)
    kind, data = insights.payload
    assert kind == "portfolio_insights"
    overlap = next(i for i in data["insights"] if i["kind"] == "overlap")
    assert overlap["stream_ids"] == [1, 2]


async def test_comparing_two_streams_gives_a_table() -> None:
    turn = await converse("Compare streams 1 and 2")
    assert turn.calls == [
        ("get_stream_details", {"stream_id": 1}),
        ("get_stream_details", {"stream_id": 2}),
    ]
    assert "| | Stream 1 | Stream 2 |\n|---|---|---|" in turn.message
    assert "| **Name** | Cancer immunotherapy | Heart failure therapies |" in turn.message
    assert "| **Reports** | 4 | 0 |" in turn.message


async def test_a_comparison_says_which_side_failed() -> None:
    turn = await converse("Compare streams 1 and 9")
    assert "| **Name** | Cancer immunotherapy | — |" in turn.message
    assert (
        "Not available — Stream 9: Tool get_stream_details failed: LookupError: no stream 9."
        in (turn.message)
    )


async def test_comparing_my_streams_lists_them_first() -> None:
    turn = await converse("Compare my streams")
    assert [name for name, _ in turn.calls] == [
        "list_research_streams",
        "get_stream_details",
        "get_stream_details",
    ]
    assert "| | Stream 1 | Stream 2 |" in turn.message


async def test_comparing_the_top_articles_of_a_report() -> None:
    turn = await converse("Compare the top two articles", REPORTS_PAGE)
    first, second = REPORT_PMIDS[:2]
    assert turn.calls == [
        ("get_pubmed_article", {"pmid": first}),
        ("get_pubmed_article", {"pmid": second}),
    ]
    assert f"| | PMID {first} | PMID {second} |" in turn.message
    assert "| **Journal** | Synthetic Sample Journal | Synthetic Sample Journal |" in turn.message
    assert "BACKGROUND" not in turn.message


@pytest.mark.parametrize(
    "context",
    [
        {},
        {"current_page": "streams"},
        {"current_page": "new_stream"},
        _edit("semantic"),
        _edit("retrieval"),
        _edit("presentation"),
        REPORTS_PAGE,
        {"current_page": "article", "article": {"pmid": CORPUS[0].pmid, "title": CORPUS[0].title}},
    ],
)
async def test_help_offers_choices_the_model_understands(context: dict[str, Any]) -> None:
    turn = await converse("help", context)
    [block] = find_choice_blocks(turn.message)
    assert block.valid
    for option in block.options:
        answer = await converse(option.value, context)
        assert OFFLINE_NOTE not in answer.message
        assert "What should I do?" not in answer.message


async def test_an_unsupported_request_gets_an_honest_answer() -> None:
    turn = await converse("Write me a sonnet about the sea, please")
    assert turn.calls == []
    assert turn.message.startswith("I can't write you a sonnet about the sea. On this page I can:")
    assert OFFLINE_NOTE in turn.message
    assert "ANTHROPIC_API_KEY" in turn.message
    assert "OPENAI_API_KEY" in turn.message
    [block] = find_choice_blocks(turn.message)
    assert [o.value for o in block.options] == [
        "List my streams",
        "Search PubMed for CRISPR base editing",
    ]


async def test_a_search_without_a_topic_presents_choices() -> None:
    turn = await converse("search", _edit("semantic"))
    assert [name for name, _ in turn.calls] == ["present_choices"]
    [block] = find_choice_blocks(turn.message)
    assert block.valid
    assert block.options[0].value == "Search PubMed for CAR-T cell therapy"


async def test_a_failing_tool_is_reported_plainly() -> None:
    turn = await converse("Tell me about PMID 99999999")
    assert turn.calls == [("get_pubmed_article", {"pmid": "99999999"})]
    assert turn.results[0].is_error
    assert "I could not look up PMID 99999999: the `get_pubmed_article` tool failed" in (
        turn.message
    )
    assert "PMID 99999999 is not in PubMed" in turn.message


async def test_without_the_tool_it_says_so_and_calls_nothing() -> None:
    turn = await converse("Find articles on sepsis", tools=[])
    assert turn.calls == []
    assert turn.message == (
        "I cannot search PubMed: the `search_pubmed` tool is not available here."
    )


async def test_the_stored_article_tool_stands_in_for_pubmed() -> None:
    tools = [t for t in TOOLS if t.name != "get_pubmed_article"]
    turn = await converse(f"Tell me about PMID {CORPUS[0].pmid}", tools=tools)
    assert turn.calls == [("get_article_details", {"pmid": CORPUS[0].pmid})]


async def test_the_same_request_gives_the_same_reply() -> None:
    first = await converse("Summarise this report", REPORTS_PAGE)
    second = await converse("Summarise this report", REPORTS_PAGE)
    assert first.deltas == second.deltas
    assert first.events == second.events


async def test_text_streams_word_by_word_and_payloads_in_one_piece() -> None:
    turn = await converse("Propose a schema", _edit("semantic"))
    marked = [d for d in turn.deltas if d.startswith(("SCHEMA_PROPOSAL: {", "SUGGESTED_VALUES: ["))]
    assert len(marked) == 2
    assert marked[0].endswith("}\n")
    others = [d for d in turn.deltas if d not in marked]
    assert len(others) > 10
    assert all(len(d.split()) <= 1 for d in others)
    assert "".join(others).startswith("A proposal for the semantic space, drafted from")


async def test_an_earlier_turn_does_not_change_the_answer() -> None:
    history: list[ModelMessage] = [UserTurn("List my streams"), AssistantTurn("You have 3.")]
    turn = await converse("Show details of stream 2", history=history)
    assert turn.calls == [("get_stream_details", {"stream_id": 2})]


async def test_each_chunk_waits_the_configured_delay() -> None:
    setup = prepare_turn({}, is_admin=False)
    request = ModelRequest(system=setup.system_prompt, messages=[UserTurn("hello there friend")])
    model = OfflineModel(delay=0.005)
    loop_time = asyncio.get_running_loop().time
    start = loop_time()
    events = [e async for e in model.stream(request)]
    chunks = [e for e in events if isinstance(e, TextDelta)]
    assert len(chunks) > 5
    assert loop_time() - start >= 0.005 * len(chunks)
    assert not any(isinstance(e, ModelToolCall) for e in events)


_ASKS = [
    "Find articles on sepsis",
    "search",
    "Tell me about PMID SYN000004",
    "Tell me about this article",
    "Summarise this report",
    "List my streams",
    "Details of this stream",
    "Describe a stream",
    "Search my reports for melanoma",
    "Propose a schema",
    "Suggest topics",
    "Suggest a template",
    "Suggest retrieval queries",
    "Which categories?",
    "Validate this stream",
    "Compare my streams",
    "Compare PMID SYN000001 and PMID SYN000002",
    "Compare the top two articles",
    "Suggest new streams",
    "Portfolio insights",
    "help",
    "Write a poem",
]
_CONTEXTS = [
    {},
    {"current_page": "streams", "streams": [{"id": 1, "name": "A"}]},
    {"current_page": "new_stream", "stream": STREAM},
    _edit("semantic"),
    _edit("retrieval"),
    _edit(None, {}),
    REPORTS_PAGE,
    {"current_page": "article", "article": {"pmid": "SYN000009"}},
]
_NAMES = [t.name for t in TOOLS]


@settings(max_examples=60, deadline=None)
@given(
    message=st.one_of(st.sampled_from(_ASKS), st.text(max_size=40)),
    context=st.sampled_from(_CONTEXTS),
    offered=st.sets(st.sampled_from(_NAMES)),
)
def test_it_calls_only_offered_tools_and_always_finishes(
    message: str, context: dict[str, Any], offered: set[str]
) -> None:
    tools = [t for t in TOOLS if t.name in offered]
    turn = asyncio.run(converse(message, context, tools=tools))
    assert {name for name, _ in turn.calls} <= offered
    assert turn.message.strip()
    assert turn.reply.warnings == []


def test_chunks_join_to_the_text_and_keep_blocks_whole() -> None:
    block = '```choices\n{"question": "Q", "options": []}\n```'
    text = f'Hello  wide\nworld.\n\n{block}\nSUGGESTED_VALUES: ["a b"]\ntail'
    pieces = list(chunks(text))
    assert "".join(pieces) == text
    assert block + "\n" in pieces
    assert 'SUGGESTED_VALUES: ["a b"]\n' in pieces
    assert pieces[:3] == ["Hello  ", "wide\n", "world.\n"]


async def _streamed(request: ModelRequest) -> tuple[str, list[str]]:
    text, calls = "", []
    async for event in OfflineModel(delay=0).stream(request):
        if isinstance(event, TextDelta):
            text += event.text
        elif isinstance(event, ModelToolCall):
            calls.append(event.name)
    return text, calls


async def test_continue_streams_only_what_comes_after_the_part_already_shown() -> None:
    setup = prepare_turn({}, is_admin=False)
    ask: list[ModelMessage] = [UserTurn("hello there friend")]
    whole, _ = await _streamed(ModelRequest(system=setup.system_prompt, messages=ask))
    shown = whole[: len(whole) // 2]

    cut = [*ask, AssistantTurn(shown, partial=True)]
    rest, _ = await _streamed(ModelRequest(system=setup.system_prompt, messages=cut))

    assert len(whole.split()) > 5
    assert shown.strip() + rest == whole.strip()
