"""How a shared paper relates to a page and its stream, and the topic it would add."""

from __future__ import annotations

from horizon.offline.papers import Paper
from horizon.offline.relating import paper_proposal, shared_terms, stream_topics, topic_name

PAPER = Paper(
    name="paper.pdf",
    title="Base editing of HBB corrects sickle cell disease in mice",
    abstract="We corrected the sickle mutation with an adenine base editor. The cells "
    "engrafted. Results were significant.",
    readable=True,
)


def test_shared_terms_are_the_papers_subject_words_the_page_uses_too() -> None:
    page = ["CRISPR and gene editing", "Base editors in sickle cell disease trials"]

    assert shared_terms(PAPER, page) == ["Base", "editing", "sickle", "disease", "editor"]


def test_common_words_are_never_shared_terms() -> None:
    assert shared_terms(PAPER, ["The results in these cells were significant"]) == []


def test_the_streams_topics_are_read_as_its_details_list_them() -> None:
    line = "CRISPR (CRISPR-Cas systems and their uses.); Base editing; Delivery (AAV (and LNP))"

    assert stream_topics(line) == [
        {"name": "CRISPR", "description": "CRISPR-Cas systems and their uses."},
        {"name": "Base editing", "description": ""},
        {"name": "Delivery", "description": "AAV (and LNP)"},
    ]
    assert stream_topics("none") == []


def test_the_proposal_keeps_the_current_topics_and_adds_the_paper_last() -> None:
    current = [{"name": "CRISPR", "description": "Cas systems."}]

    data = paper_proposal(PAPER, current=current, stream="Gene editing", shared=["Base"])

    assert data is not None
    assert data["proposed_changes"]["topics"] == [
        *current,
        {
            "name": PAPER.title,
            "description": "Seed paper: We corrected the sickle mutation with an adenine "
            "base editor.",
        },
    ]
    assert data["confidence"] == "medium"
    assert data["reasoning"] == (
        "Adds the paper as a topic of “Gene editing” (keeps its 1 current topic); "
        "it shares Base with it."
    )


def test_a_paper_already_a_topic_is_not_proposed_again() -> None:
    current = [{"name": PAPER.title.upper(), "description": ""}]

    assert paper_proposal(PAPER, current=current, stream="S", shared=[]) is None


def test_a_long_title_is_cut_at_a_word_for_the_topic_name() -> None:
    long = Paper(name="p.pdf", title="word " * 40, abstract="", readable=True)

    name = topic_name(long)

    assert len(name) <= 121 and name.endswith("word…")
