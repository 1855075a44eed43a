from __future__ import annotations

from typing import Any

import pytest

from horizon.pages.reports import build_context
from pagechat.pages import parse_reply, prepare_turn

REPORT_CONTEXT: dict[str, Any] = {
    "current_page": "reports",
    "stream_id": 3,
    "stream_name": "Cancer immunotherapy",
    "report_id": 42,
    "report": {
        "id": 42,
        "date": "2025-01-06",
        "key_highlights": ["Two PD-1 trials", "A CAR-T safety signal"],
        "thematic_summary": "Immunotherapy\nkeeps growing.",
        "article_count": 3,
    },
    "articles": [
        {
            "pmid": "38012345",
            "title": "PD-1 blockade in melanoma",
            "relevance_score": 0.923,
            "ranking": 1,
            "category": "Trials",
            "starred": True,
            "notes": "read",
            "year": 2024,
        },
        {"pmid": "SYN000002", "title": "[Synthetic] CAR-T in glioblastoma", "score": "0.5"},
    ],
    "selected_article": {"pmid": "38012345", "title": "PD-1 blockade in melanoma"},
}


def test_context_shows_the_report_and_a_compact_article_list() -> None:
    assert build_context(REPORT_CONTEXT).splitlines() == [
        "Page: reports",
        "Stream ID: 3",
        "Stream name: Cancer immunotherapy",
        "Report ID: 42",
        "Report date: 2025-01-06",
        "Key highlights (2):",
        "- Two PD-1 trials",
        "- A CAR-T safety signal",
        "Thematic summary: Immunotherapy keeps growing.",
        "The report has 3 articles; the page sent 2.",
        "Articles (2):",
        "- PMID 38012345 (rank 1, score 0.92, category: Trials, 2024, starred, has notes) — "
        "PD-1 blockade in melanoma",
        "- PMID SYN000002 (score 0.5) — [Synthetic] CAR-T in glioblastoma",
        "Selected article PMID: 38012345",
        "Selected article title: PD-1 blockade in melanoma",
    ]


def test_highlights_as_text_and_a_bare_selected_pmid() -> None:
    context = {"report": {"id": "8", "key_highlights": "One big trial."}, "selected_article": 9}
    text = build_context(context)
    assert "Report ID: 8" in text
    assert "Key highlights: One big trial." in text
    assert "Selected article PMID: 9" in text


@pytest.mark.parametrize(
    "context",
    [{}, {"report": [], "articles": "none", "selected_article": {}}, {"articles": [1, None]}],
)
def test_context_without_a_report(context: dict[str, Any]) -> None:
    assert build_context(context) == "Page: reports\nReport ID: (not set)\nArticles (0): none"


def test_long_article_lists_are_cut_with_a_note() -> None:
    articles = [{"pmid": str(n), "title": f"Article {n}"} for n in range(1, 71)]
    text = build_context({"report_id": 1, "articles": articles})
    assert "Articles (70):" in text
    assert "- PMID 60 — Article 60" in text
    assert "PMID 61 " not in text
    assert text.endswith("(10 more not shown)")


def test_the_page_offers_a_shared_papers_card_and_the_open_article_action() -> None:
    setup = prepare_turn(REPORT_CONTEXT, is_admin=False)
    assert [(p.type, p.accept_action) for p in setup.payloads] == [
        ("schema_proposal", "apply_schema_proposal")
    ]
    assert "call get_stream_details for its current topics" in setup.system_prompt
    assert "open_article (data: pmid)" in setup.system_prompt
    assert "Report ID: 42" in setup.context_text
    reply = parse_reply(
        'SUGGESTED_ACTIONS: [{"label": "Open", "action": "open_article", "data": {"pmid": "1"}}]',
        "reports",
    )
    assert reply.suggested_actions is not None
    assert reply.suggested_actions[0].handler == "client"
