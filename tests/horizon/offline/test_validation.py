from __future__ import annotations

from horizon.offline.validation import validation_feedback, validation_results
from horizon.page_state import StreamState
from horizon.payloads import VALIDATION_FEEDBACK, VALIDATION_RESULTS
from pagechat.tools import schema_error

GOOD = StreamState(
    name="Sepsis care",
    purpose="Follow antimicrobial stewardship and rapid diagnostics for adults with sepsis.",
    topics=(("Stewardship", "a"), ("Rapid diagnostics", "b"), ("Sepsis", "c")),
    entities=(("Sepsis", "disease"),),
    inclusion_notes="Adults.",
    exclusion_notes="Children.",
    queries=(("pubmed", '("sepsis"[tiab])'),),
    categories=(("Trials", ""),),
)


def test_a_complete_stream_has_no_issues() -> None:
    data = validation_results(GOOD)
    assert schema_error(VALIDATION_RESULTS.schema, data) is None
    assert (data["errors"], data["warnings"], data["suggestions"]) == ([], [], [])
    assert data["summary"] == "0 errors, 0 warnings, 0 suggestions"


def test_broken_queries_and_duplicates_are_errors() -> None:
    draft = StreamState(
        name="X",
        purpose="short",
        topics=(("Sepsis", ""), ("sepsis", "")),
        queries=(("pubmed", '("sepsis"[tiab]'), ("pubmed", "malaria[tiab]")),
    )
    data = validation_results(draft)
    messages = [e["message"] for e in data["errors"]]
    assert "The topic “sepsis” is there twice." in messages
    assert "Query 1: its parentheses do not balance." in messages
    assert {"field": "queries", "message": "Query 2 mentions none of the topics."} in (
        data["warnings"]
    )
    assert {"field": "topics", "message": "Describe these topics: Sepsis, sepsis."} in (
        data["suggestions"]
    )


def test_a_new_draft_needs_no_queries_to_be_ready() -> None:
    draft = StreamState(name=GOOD.name, purpose=GOOD.purpose, topics=GOOD.topics)
    data = validation_feedback(draft)
    assert schema_error(VALIDATION_FEEDBACK.schema, data) is None
    assert data["ready"] is True
    assert validation_feedback(StreamState())["ready"] is False
