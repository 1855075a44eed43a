from __future__ import annotations

from horizon.page_state import StreamState, pairs, read_stream, stream_of, write_stream
from horizon.page_text import ContextText, read_page_text


def test_a_stream_the_page_writes_reads_back_the_same() -> None:
    sent = {
        "name": "Sepsis care",
        "purpose": "Follow stewardship — and diagnostics",
        "semantic_space": {
            "topics": [{"name": "Rapid diagnostics", "description": "PCR — and more"}],
            "entities": [{"name": "Sepsis", "type": "disease"}, {"type": "drug"}],
            "inclusion_notes": "Adults",
        },
        "retrieval_config": {"queries": ["sepsis[tiab]", {"query": ""}]},
        "presentation_config": {"categories": [{"name": "Trials"}]},
    }
    stream = read_stream(sent)
    assert stream == StreamState(
        name="Sepsis care",
        purpose="Follow stewardship — and diagnostics",
        topics=(("Rapid diagnostics", "PCR — and more"),),
        entities=(("Sepsis", "disease"),),
        inclusion_notes="Adults",
        queries=(("pubmed", "sepsis[tiab]"),),
        categories=(("Trials", ""),),
    )
    text = ContextText("edit_stream", "semantic")
    write_stream(text, stream)
    assert stream_of(read_page_text(text.render())) == stream


def test_an_odd_stream_reads_as_an_empty_one() -> None:
    assert read_stream(42) == read_stream(None) == StreamState()


def test_items_are_named_objects_or_strings() -> None:
    items = [{"title": "A", "description": "x"}, "B", 3, {"description": "nameless"}]
    assert pairs(items, ("name", "title"), ("description",)) == [("A", "x"), ("B", "")]
