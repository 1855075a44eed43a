from __future__ import annotations

from horizon.offline.drafting import (
    Draft,
    entities_of,
    key_words,
    phrases,
    pubmed_query,
    schema_proposal,
    stream_template,
    topic_suggestions,
)
from horizon.payloads import SCHEMA_PROPOSAL, STREAM_TEMPLATE, TOPIC_SUGGESTIONS
from pagechat.tools import schema_error


def test_phrases_drop_filler_and_lone_adjectives() -> None:
    purpose = "Track clinical advances in CAR-T cell therapy and immune checkpoint inhibitors"
    assert phrases(purpose) == ["CAR-T cell therapy", "immune checkpoint inhibitors"]
    assert phrases("[Synthetic] Effect of base editing on sickle cell disease.") == [
        "base editing",
        "sickle cell disease",
    ]


def test_entities_are_typed_by_what_they_name() -> None:
    text = "PD-1 and BRCA1 in HIV, COVID-19 and breast cancer treated with pembrolizumab"
    assert dict(entities_of(text)) == {
        "Breast cancer": "disease",
        "PD-1": "gene",
        "BRCA1": "gene",
        "HIV": "organism",
        "COVID-19": "disease",
        "Pembrolizumab": "drug",
    }


def test_a_schema_proposal_keeps_the_current_items_and_fills_the_blanks() -> None:
    draft = Draft(
        name="Sepsis care",
        purpose="Follow antimicrobial stewardship and rapid diagnostics in sepsis",
        topics=(("Sepsis care", "kept"),),
        inclusion_notes="Adults only.",
    )
    data = schema_proposal(draft)
    assert data is not None
    assert schema_error(SCHEMA_PROPOSAL.schema, data) is None
    changes = data["proposed_changes"]
    assert [t["name"] for t in changes["topics"]] == [
        "Sepsis care",
        "Antimicrobial stewardship",
        "Rapid diagnostics",
        "Sepsis",
    ]
    assert changes["topics"][0]["description"] == "kept"
    assert "inclusion_notes" not in changes
    assert "stream_name" not in changes


def test_nothing_to_propose_is_none() -> None:
    assert schema_proposal(Draft()) is None
    full = Draft(
        name="Sepsis",
        purpose="Sepsis",
        topics=(("Sepsis", ""),),
        entities=(("Sepsis", "disease"),),
        inclusion_notes="x",
        exclusion_notes="y",
    )
    assert schema_proposal(full) is None


def test_topic_suggestions_and_templates_satisfy_their_schemas() -> None:
    topics = topic_suggestions(Draft(name="Alzheimer disease"), "")
    assert topics is not None
    assert schema_error(TOPIC_SUGGESTIONS.schema, topics) is None
    for area in ("gene editing", "heart failure with preserved ejection fraction", "x"):
        assert schema_error(STREAM_TEMPLATE.schema, stream_template(area)) is None


def test_a_query_combines_topics_and_leaves_out_facets() -> None:
    draft = Draft(
        topics=(("SGLT2 inhibitors", ""), ("Clinical trials", "")),
        entities=(("Heart failure", "disease"),),
    )
    assert pubmed_query(draft) == (
        '("SGLT2 inhibitors"[Title/Abstract]) AND ("Heart failure"[Title/Abstract]) '
        "NOT (editorial[Publication Type] OR comment[Publication Type])"
    )


def test_key_words_of_a_title() -> None:
    title = "[Synthetic] Effect of CRISPR-Cas9 editing on editing efficiency in amyloidosis."
    assert key_words(title) == "CRISPR-Cas9 editing efficiency"
