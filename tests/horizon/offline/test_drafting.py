from __future__ import annotations

import itertools
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from horizon.offline.drafting import (
    capitalise,
    entities_of,
    key_words,
    phrases,
    presentation_categories,
    pubmed_query,
    retrieval_proposal,
    schema_proposal,
    stems,
    stream_template,
    topic_suggestions,
)
from horizon.page_state import StreamState
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
    draft = StreamState(
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
    ]  # "Sepsis" would say again what "Sepsis care" says
    assert changes["topics"][0]["description"] == "kept"
    assert "inclusion_notes" not in changes
    assert "stream_name" not in changes


def test_nothing_to_propose_is_none() -> None:
    assert schema_proposal(StreamState()) is None
    full = StreamState(
        name="Sepsis",
        purpose="Sepsis",
        topics=(("Sepsis", ""),),
        entities=(("Sepsis", "disease"),),
        inclusion_notes="x",
        exclusion_notes="y",
    )
    assert schema_proposal(full) is None


def test_topic_suggestions_and_templates_satisfy_their_schemas() -> None:
    topics = topic_suggestions(StreamState(name="Alzheimer disease"), "")
    assert topics is not None
    assert schema_error(TOPIC_SUGGESTIONS.schema, topics) is None
    for area in ("gene editing", "heart failure with preserved ejection fraction", "x"):
        assert schema_error(STREAM_TEMPLATE.schema, stream_template(area)) is None


def test_a_query_combines_topics_and_leaves_out_facets() -> None:
    draft = StreamState(
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


# Every drafted proposal, for any phrasing of a stream: no field says a thing twice.

_TERMS = (
    "heart failure",
    "breast cancer",
    "Alzheimer disease",
    "sepsis",
    "CAR-T cell therapy",
    "SGLT2 inhibitors",
    "gut microbiome",
    "mRNA vaccines",
    "atrial fibrillation",
    "deep brain stimulation",
    "rheumatoid arthritis",
    "base editing",
    "tuberculosis",
    "obesity",
    "ctDNA monitoring",
    "melanoma",
    "children",
    "older adults",
    "pembrolizumab",
    "whole-genome sequencing",
    "asthma",
    "type 2 diabetes",
    "clinical trials",
    "safety",
)
_LEADS = (
    "",
    "new research on ",
    "the latest studies of ",
    "tracking ",
    "what is known about ",
    "keep up with ",
    "advances in ",
    "Studies of ",
    "Follow ",
    "Recent evidence for ",
)
_JOINS = (" in ", " and ", " for ", " with ", ", ", " among ", " versus ")
_DRAFTED_TEXT = ("description", "purpose", "inclusion_notes", "reasoning", "rationale")


@st.composite
def _phrasing(draw: st.DrawFn) -> str:
    """A user's words for a subject: a lead-in, then one to three distinct terms."""
    terms = draw(st.lists(st.sampled_from(_TERMS), min_size=1, max_size=3, unique=True))
    text = draw(st.sampled_from(_LEADS)) + terms[0]
    for term in terms[1:]:
        text += draw(st.sampled_from(_JOINS)) + term
    return text


@st.composite
def _draft(draw: st.DrawFn) -> StreamState:
    own = draw(st.lists(st.sampled_from(_TERMS), max_size=2, unique=True))
    return StreamState(
        name=draw(st.one_of(st.just(""), _phrasing())),
        purpose=draw(st.one_of(st.just(""), _phrasing())),
        topics=tuple((capitalise(t), "mine") for t in own),
    )


_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
# Words too small to count as saying something twice.
_GLUE_WORDS = "that this these with from into what when them they then than only each"
_GLUE = frozenset(_GLUE_WORDS.split())


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.casefold()) if len(w) >= 4 and w not in _GLUE]


def _repeats(text: str, shared: frozenset[str]) -> list[str]:
    """Word pairs said twice, and words said twice but those several item names share
    ("PARP inhibitors and JAK inhibitors")."""
    words = _WORD.findall(text.casefold())
    pairs = Counter(p for p in itertools.pairwise(words) if stems(" ".join(p)))
    found = [" ".join(p) for p, n in pairs.items() if n > 1]
    counts = Counter(stems(w) for w in _words(text))
    return found + [" ".join(w) for w, n in counts.items() if n > 1 and not w <= shared]


def _texts(value: Any, key: str = "") -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(key, value)] if key not in ("query", "name", "type", "source") else []
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _texts(v, k)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v, key)]
    return []


def _lists_of(value: Any, field: str) -> list[list[dict[str, Any]]]:
    if isinstance(value, dict):
        found = [value[field]] if isinstance(value.get(field), list) else []
        return found + [x for v in value.values() for x in _lists_of(v, field)]
    return []


def _shared_words(names: list[str]) -> frozenset[str]:
    counts = Counter(w for n in names for w in stems(n))
    return frozenset(w for w, n in counts.items() if n > 1)


def _assert_said_once(data: dict[str, Any], draft: StreamState) -> None:
    mine = {d for _, d in draft.topics}
    names = [n for n, _ in draft.topics] + phrases(draft.name, draft.purpose)
    for field in ("topics", "entities", "categories"):
        for items in _lists_of(data, field):
            listed = [i["name"].casefold() for i in items]
            assert len(listed) == len(set(listed)), f"{field}: {listed}"
            names += [i["name"] for i in items]
    shared = _shared_words(list(dict.fromkeys(n.casefold() for n in names)))
    for key, text in _texts(data):
        if text not in mine:  # the user's own topics are kept as they are
            assert _repeats(text, shared) == [], f"{key}: {text}"


@settings(max_examples=300, deadline=None)
@given(_draft(), _phrasing())
def test_no_drafted_proposal_says_a_thing_twice(draft: StreamState, area: str) -> None:
    drafted = [
        schema_proposal(draft),
        topic_suggestions(draft, area),
        stream_template(area),
        retrieval_proposal(draft),
        presentation_categories(draft),
    ]
    for data in drafted:
        if data is not None:
            _assert_said_once(data, draft)


def test_the_terms_of_the_corpus_share_no_word() -> None:
    # Otherwise a phrasing could repeat itself, and its proposal would only echo it.
    seen: set[str] = set()
    for term in _TERMS:
        assert not stems(term) & seen, term
        seen |= stems(term)


def test_a_topic_names_its_context_only_when_that_adds_words() -> None:
    template = stream_template("new research on heart failure with preserved ejection fraction")
    described = {t["name"]: t["description"] for t in template["topics"]}
    assert template["name"] == "Heart failure with preserved ejection fraction"
    assert described["Heart failure"] == "New studies of heart failure."
    assert described["SGLT2 inhibitors"] == (
        "New studies of SGLT2 inhibitors in heart failure with preserved ejection fraction."
    )
    assert template["purpose"].startswith("Follow new research on heart failure with")
