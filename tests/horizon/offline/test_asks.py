from __future__ import annotations

import pytest

from horizon.offline.asks import recognise


@pytest.mark.parametrize(
    ("message", "kind", "query"),
    [
        ("Find articles on CRISPR base editing", "search_pubmed", "CRISPR base editing"),
        ("search PubMed for sickle cell disease?", "search_pubmed", "sickle cell disease"),
        (
            "Could you look up recent papers about heart failure on PubMed",
            "search_pubmed",
            "heart failure",
        ),
        ("search", "search_pubmed", ""),
        ("Search my reports for PD-1", "search_reports", "PD-1"),
        ("find articles on melanoma in my reports", "search_reports", "melanoma"),
        ("Suggest a template for gene editing", "template", "gene editing"),
        ("Suggest a template", "template", ""),
        ("Suggest topics", "topics", ""),
        ("Suggest retrieval queries", "retrieval", ""),
        ("Which categories should I use?", "categories", ""),
        ("Propose a schema", "schema", ""),
        ("Improve the semantic space", "schema", ""),
        ("Validate this stream", "validate", ""),
        ("Is my draft ready?", "validate", ""),
        ("Summarise this report", "summarise_report", ""),
        ("List my streams", "list_streams", ""),
        ("Suggest new streams", "stream_suggestions", ""),
        ("Give me portfolio insights", "portfolio", ""),
        ("Details of this stream", "stream_details", ""),
        ("Tell me about this article", "article", ""),
        ("Compare streams 1 and 2", "compare", ""),
        ("help", "help", ""),
        ("What can you do?", "help", ""),
        ("", "help", ""),
        ("ok thanks", "help", ""),
        ("Write me a sonnet about the sea", "unsupported", "write you a sonnet about the sea"),
        ("Purple elephants dance quietly at dawn", "other", ""),
    ],
)
def test_asks_are_recognised(message: str, kind: str, query: str) -> None:
    ask = recognise(message)
    assert (ask.kind, ask.query) == (kind, query)


def test_pmids_and_numbers_are_picked_out() -> None:
    ask = recognise("Compare PMID 38012345 and pmid:SYN000002, then 12345678 in stream 3.")
    assert ask.pmids == ("38012345", "SYN000002", "12345678")
    assert ask.ids == (3,)
    assert recognise("compare streams 4, 7 and 4").ids == (4, 7)


def test_a_bare_pmid_is_an_article_ask() -> None:
    ask = recognise("38012345")
    assert (ask.kind, ask.pmids) == ("article", ("38012345",))
