"""Each page's main tasks, asked the way people ask: synonyms, indirect questions, no keyword.

Every phrasing runs one real turn of the offline model through the agent loop and the
reply parser; what counts is what the user sees: the tool it called, or the card
(payload) it wrote.
"""

from __future__ import annotations

from typing import Any

import pytest

from horizon.offline import OFFLINE_NOTE
from pagechat.pages import find_choice_blocks

from .harness import CORPUS, REPORT_ID, REPORT_PMIDS, Turn, converse

STREAM = {
    "name": "Cancer immunotherapy",
    "purpose": "Track clinical advances in CAR-T cell therapy and immune checkpoint inhibitors "
    "for solid tumours such as glioblastoma and melanoma",
    "semantic_space": {
        "topics": [{"name": "CAR-T cell therapy", "description": "Engineered T cells"}],
        "entities": [{"name": "PD-1", "type": "protein"}],
    },
}
STREAMS_PAGE = {
    "current_page": "streams",
    "streams": [
        {"id": 1, "name": "Cancer immunotherapy", "topics": ["PD-1 inhibitors"], "report_count": 3},
        {"id": 2, "name": "Melanoma immunotherapy", "topics": ["PD-1"], "report_count": 0},
    ],
}
NEW_STREAM_PAGE = {"current_page": "new_stream", "stream": STREAM}
REPORTS_PAGE = {
    "current_page": "reports",
    "report_id": REPORT_ID,
    "articles": [{"pmid": p, "title": "t"} for p in REPORT_PMIDS],
}
ARTICLE = CORPUS[5]
ARTICLE_PAGE = {
    "current_page": "article",
    "article": {"pmid": ARTICLE.pmid, "title": ARTICLE.title},
}


def _edit(tab: str) -> dict[str, Any]:
    return {"current_page": "edit_stream", "active_tab": tab, "stream_id": 1, "stream": STREAM}


def _outcome(turn: Turn) -> str:
    """What the user sees first: the tool called, else the card written, else "text"."""
    if turn.calls:
        return f"tool:{turn.calls[0][0]}"
    if turn.reply.payloads:
        return f"card:{turn.reply.payloads[0].type}"
    return "text"


STREAMS = [
    ("What am I keeping an eye on?", "tool:list_research_streams"),
    ("Remind me which research areas I follow", "tool:list_research_streams"),
    ("Show me everything I track", "tool:list_research_streams"),
    ("How many feeds do I have?", "tool:list_research_streams"),
    ("Where are my blind spots?", "card:portfolio_insights"),
    ("Am I following the same thing twice?", "card:portfolio_insights"),
    ("Is there redundancy between my streams?", "card:portfolio_insights"),
    ("What else could I be monitoring?", "card:stream_suggestions"),
    ("Recommend something new to follow", "card:stream_suggestions"),
    ("Tell me about stream 2", "tool:get_stream_details"),
    ("How is stream 1 configured?", "tool:get_stream_details"),
    ("Anything recent on sickle cell gene therapy?", "tool:search_pubmed"),
    ("I'd like to read the latest literature about long covid", "tool:search_pubmed"),
    ("Is stream 1 growing?", "tool:chart_stream"),
    ("Graph stream 3 over time", "tool:chart_stream"),
]
NEW_STREAM = [
    ("Fill in the form for me", "card:stream_template"),
    ("Could you prefill everything from what I typed?", "card:stream_template"),
    ("I want to follow research on antibiotic resistance", "card:stream_template"),
    ("Give me a starting point for this stream", "card:stream_template"),
    ("Which themes should it cover?", "card:topic_suggestions"),
    ("What subjects am I missing?", "card:topic_suggestions"),
    ("Add a few subtopics", "card:topic_suggestions"),
    ("Is it good to go?", "card:validation_feedback"),
    ("Did I forget anything?", "card:validation_feedback"),
    ("Can I save this yet?", "card:validation_feedback"),
    ("Any mistakes in there?", "card:validation_feedback"),
]
EDIT_STREAM = [
    ("Sharpen the scope", "semantic", "card:schema_proposal"),
    ("Which entities matter for this?", "semantic", "card:schema_proposal"),
    ("Make the description better", "semantic", "card:schema_proposal"),
    ("What search terms would catch the right papers?", "retrieval", "card:retrieval_proposal"),
    ("Improve my boolean string", "retrieval", "card:retrieval_proposal"),
    ("How should articles be pulled from PubMed?", "retrieval", "card:retrieval_proposal"),
    ("Suggest something", "retrieval", "card:retrieval_proposal"),
    ("How should the results be grouped?", "presentation", "card:presentation_categories"),
    ("Organise the reports into sections", "presentation", "card:presentation_categories"),
    ("Suggest buckets", "presentation", "card:presentation_categories"),
    ("Does this look right?", "semantic", "card:validation_results"),
    ("Is anything wrong with my setup?", "retrieval", "card:validation_results"),
    ("How has the number of articles changed over time?", "semantic", "tool:chart_stream"),
]
REPORTS = [
    ("What's worth reading here?", "tool:get_report_summary"),
    ("Give me the short version", "tool:get_report_summary"),
    ("What stands out this week?", "tool:get_report_summary"),
    ("Brief me", "tool:get_report_summary"),
    ("Key takeaways?", "tool:get_report_summary"),
    ("sumarise it", "tool:get_report_summary"),
    ("How do the top two differ?", "tool:get_pubmed_article"),
    ("Put the two best papers side by side", "tool:get_pubmed_article"),
    ("Have my past reports covered melanoma?", "tool:search_articles_in_reports"),
    ("Which of my reports mention PD-1?", "tool:search_articles_in_reports"),
    (f"What did PMID {REPORT_PMIDS[2]} find?", "tool:get_pubmed_article"),
    ("Plot the categories", "tool:chart_report"),
    ("How old are these papers?", "tool:chart_report"),
    ("Can I see a breakdown by year?", "tool:chart_report"),
    ("Visualise it", "tool:chart_report"),
]
ARTICLES = [
    ("Explain it like I'm five", "tool:get_pubmed_article"),
    ("What did they find?", "tool:get_pubmed_article"),
    ("What's the takeaway of this paper?", "tool:get_pubmed_article"),
    ("Who wrote it?", "tool:get_pubmed_article"),
    ("What methods did they use?", "tool:get_pubmed_article"),
    ("Is this study any good?", "tool:get_pubmed_article"),
    ("In plain words please", "tool:get_pubmed_article"),
    ("Anything similar out there?", "tool:search_pubmed"),
    ("What else has been written on this?", "tool:search_pubmed"),
    ("Find related work", "tool:search_pubmed"),
    ("More papers like this one", "tool:search_pubmed"),
]

CASES = [
    *[pytest.param(STREAMS_PAGE, m, o, id=f"streams: {m}") for m, o in STREAMS],
    *[pytest.param(NEW_STREAM_PAGE, m, o, id=f"new_stream: {m}") for m, o in NEW_STREAM],
    *[pytest.param(_edit(t), m, o, id=f"edit_stream/{t}: {m}") for m, t, o in EDIT_STREAM],
    *[pytest.param(REPORTS_PAGE, m, o, id=f"reports: {m}") for m, o in REPORTS],
    *[pytest.param(ARTICLE_PAGE, m, o, id=f"article: {m}") for m, o in ARTICLES],
]


def test_every_page_has_at_least_ten_phrasings() -> None:
    pages = [p.values[0]["current_page"] for p in CASES]  # type: ignore[index]
    assert {page: pages.count(page) >= 10 for page in set(pages)} == dict.fromkeys(
        ("streams", "new_stream", "edit_stream", "reports", "article"), True
    )


@pytest.mark.parametrize(("context", "message", "outcome"), CASES)
async def test_a_phrasing_leads_to_the_right_tool_or_card(
    context: dict[str, Any], message: str, outcome: str
) -> None:
    turn = await converse(message, context)
    assert _outcome(turn) == outcome
    assert OFFLINE_NOTE not in turn.message


async def test_a_chart_ask_on_the_reports_page_shows_the_chart_and_its_counts() -> None:
    turn = await converse("How are the articles distributed?", REPORTS_PAGE)

    assert turn.calls == [("chart_report", {"report_id": REPORT_ID})]
    assert turn.results[0].payload is not None
    assert turn.results[0].payload["type"] == "chart"
    assert "per category and per publication year" in turn.message
    assert f"Per category: Trials {len(REPORT_PMIDS)}" in turn.message


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        ("Anything recent on sickle cell gene therapy?", "sickle cell gene therapy"),
        ("I'd like to read the latest literature about long covid", "long covid"),
        ("What has been published lately on gut microbiome and depression?", "gut microbiome"),
        ("Any new CRISPR papers?", "CRISPR"),
    ],
)
async def test_an_indirect_search_searches_for_its_topic(message: str, topic: str) -> None:
    turn = await converse(message, STREAMS_PAGE)
    [(name, given)] = turn.calls
    assert name == "search_pubmed"
    assert given["query"].startswith(topic)


@pytest.mark.parametrize(
    ("context", "first_choice"),
    [
        (STREAMS_PAGE, "List my streams"),
        (NEW_STREAM_PAGE, "Suggest a template"),
        (REPORTS_PAGE, "Summarise this report"),
        (ARTICLE_PAGE, "Tell me about this article"),
    ],
)
async def test_when_unsure_it_says_so_and_offers_the_pages_tasks(
    context: dict[str, Any], first_choice: str
) -> None:
    turn = await converse("Purple elephants dance quietly at dawn", context)
    assert turn.calls == []
    assert turn.message.startswith("I am not sure what you mean")
    [block] = find_choice_blocks(turn.message)
    assert block.valid and block.options[0].value == first_choice
    answer = await converse(block.options[0].value, context)
    assert answer.calls or answer.reply.payloads
