from __future__ import annotations

from horizon.offline.reading import articles_in, fields_in, listing_lines, stream_ids_in


def test_articles_are_read_from_common_layouts() -> None:
    text = "\n".join(
        [
            'Found 5 articles for "x":',
            "1. PMID 38012345 — Base editing for SCD (Blood, 2023)",
            "2. Effect of X (a trial) (PMID 1234567)",
            "- PMID: SYN000004",
            "  Title: [Synthetic] Foo bar",
            "PMID SYN000001 (rank 1, score 0.92) — [Synthetic] Title here",
            "PMID: 99999 | Title: Pipe title",
            "Again PMID 38012345 — duplicate",
        ]
    )
    assert articles_in(text) == [
        ("38012345", "Base editing for SCD (Blood, 2023)"),
        ("1234567", "Effect of X (a trial)"),
        ("SYN000004", "[Synthetic] Foo bar"),
        ("SYN000001", "[Synthetic] Title here"),
        ("99999", "Pipe title"),
    ]
    assert articles_in("No article matches.") == []


def test_fields_are_the_first_of_each_label() -> None:
    text = "Name: Foo\nPurpose: bar: baz\n- Topics: a, b\nName: again\nnot a field"
    assert fields_in(text) == {"Name": "Foo", "Purpose": "bar: baz", "Topics": "a, b"}


def test_stream_ids_and_listing_lines() -> None:
    text = "You have 3 streams:\n- [4] Cancer\n2. ID 7: Heart\n#9 Brain\nThat is all."
    assert stream_ids_in(text) == [4, 7, 9]
    assert listing_lines(text, 2) == ["[4] Cancer", "ID 7: Heart"]
