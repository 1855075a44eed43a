from __future__ import annotations

from typing import Any

import pytest

from horizon.pages.article import build_context
from pagechat.pages import prepare_turn


def test_context_shows_the_citation_report_facts_and_abstract() -> None:
    context = {
        "current_page": "article",
        "report_id": 42,
        "article": {
            "pmid": "38012345",
            "title": "PD-1 blockade in melanoma",
            "authors": [f"Author {n}" for n in range(1, 11)],
            "journal": "Lancet",
            "year": 2024,
            "doi": "10.1000/xyz",
            "abstract": "BACKGROUND: x.\n\nRESULTS: y.",
            "relevance_score": 0.9,
            "rationale": "Matches the PD-1 topic.",
            "category": "Trials",
            "starred": False,
            "notes": "Ask the team.",
        },
    }
    assert build_context(context).splitlines() == [
        "Page: article",
        "Article PMID: 38012345",
        "Title: PD-1 blockade in melanoma",
        "Authors: Author 1, Author 2, Author 3, Author 4, Author 5, Author 6, Author 7, "
        "Author 8 and 2 more",
        "Journal: Lancet",
        "Year: 2024",
        "DOI: 10.1000/xyz",
        "Report ID: 42",
        "Relevance score: 0.9",
        "Relevance rationale: Matches the PD-1 topic.",
        "Category: Trials",
        "Starred: no",
        "Notes: Ask the team.",
        "Abstract: BACKGROUND: x. RESULTS: y.",
    ]


@pytest.mark.parametrize("context", [{}, {"article": "38012345"}, {"article": {"year": "old"}}])
def test_context_without_an_article(context: dict[str, Any]) -> None:
    assert build_context(context) == (
        "Page: article\nArticle PMID: (not set)\nTitle: (not set)\nAbstract: (not set)"
    )


def test_the_pages_one_payload_adds_a_shared_paper_and_its_context_reaches_the_prompt() -> None:
    setup = prepare_turn({"current_page": "article", "article": {"pmid": "1"}}, is_admin=False)
    assert [(p.type, p.accept_action) for p in setup.payloads] == [
        ("schema_proposal", "apply_schema_proposal")
    ]
    assert "When the user's message carries a paper's PDF" in setup.system_prompt
    assert "Article PMID: 1" in setup.system_prompt
