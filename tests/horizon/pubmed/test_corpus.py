from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from horizon.pubmed import (
    SYNTHETIC_JOURNAL,
    SYNTHETIC_TOPICS,
    ArticleRecord,
    corpus_files,
    is_synthetic,
    iter_corpus,
    iter_corpus_items,
    rank_records,
    synthetic_corpus,
)


def test_corpus_files_come_in_relative_path_order(corpus_dir: Path) -> None:
    names = [path.relative_to(corpus_dir).as_posix() for path in corpus_files(corpus_dir)]

    assert len(names) == 1 + 164 + 14
    assert names[0] == "medline16n0902.xml.gz"
    assert names[1] == "metapub_pmid_xml/11618220.xml"
    assert names[-14:] == sorted(names[-14:])
    assert names[-8] == "pmparser_sample/baseline/pubmed26n1334.xml.gz"
    assert names[-7] == "pmparser_sample/updatefiles/pubmed20n1016.xml.gz"


def test_iter_corpus_reads_every_record_and_reports_deletions(corpus_dir: Path) -> None:
    deleted: list[str] = []

    records = list(iter_corpus(corpus_dir, on_delete=deleted.append))

    assert len(records) == 1186
    assert len({record.pmid for record in records}) == 1170
    assert len(deleted) == 1 + 316
    assert records[0].source == "medline16n0902.xml.gz"
    assert records[-1].source == "pmparser_sample/updatefiles/pubmed26n1335.xml.gz"


def test_versions_of_a_citation_come_oldest_first_so_the_last_one_wins(
    corpus_dir: Path,
) -> None:
    # The sample's repeated PMIDs are versioned citations (PMID Version="1".."4",
    # F1000Research), all within one file each.
    versions: dict[str, list[ArticleRecord]] = {}
    for record in iter_corpus(corpus_dir / "pmparser_sample"):
        versions.setdefault(record.pmid, []).append(record)
    repeated = {pmid: records for pmid, records in versions.items() if len(records) > 1}

    assert sum(len(records) - 1 for records in repeated.values()) == 419 - 403
    assert all(len({r.source for r in records}) == 1 for records in repeated.values())
    assert [r.doi for r in repeated["34853674"]] == [
        f"10.12688/f1000research.28105.{version}" for version in (1, 2, 3, 4)
    ]


def test_iter_corpus_items_interleaves_deletions_in_file_order(corpus_dir: Path) -> None:
    items = list(iter_corpus_items(corpus_dir / "pmparser_sample"))
    deletions = [item for item in items if not isinstance(item, ArticleRecord)]

    assert Counter(item.source for item in deletions) == {
        "updatefiles/pubmed20n1016.xml.gz": 262,
        "updatefiles/pubmed22n1115.xml.gz": 48,
        "updatefiles/pubmed26n1335.xml.gz": 6,
    }


def test_iter_corpus_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError):
        list(iter_corpus(tmp_path / "absent"))


def test_synthetic_corpus_is_the_same_every_time() -> None:
    assert synthetic_corpus() == synthetic_corpus(n=300, seed=7)
    assert synthetic_corpus(seed=8) != synthetic_corpus(seed=7)
    assert synthetic_corpus(n=12) == synthetic_corpus(n=300)[:12]


def test_synthetic_records_say_they_are_synthetic() -> None:
    records = synthetic_corpus()

    assert len(records) == 300
    assert len({record.pmid for record in records}) == 300
    assert records[0].pmid == "SYN000001"
    for record in records:
        assert is_synthetic(record)
        assert record.title.startswith("[Synthetic] ")
        assert record.journal == SYNTHETIC_JOURNAL
        assert record.abstract.startswith("NOTE: Synthetic sample record")
        assert "does not describe a real study" in record.abstract
        assert record.source == "synthetic"
        assert record.doi is None
        assert record.authors and record.year is not None


def test_real_records_are_not_taken_for_synthetic(corpus_dir: Path) -> None:
    assert not any(is_synthetic(r) for r in iter_corpus(corpus_dir / "metapub_pmid_xml"))


@pytest.mark.parametrize(
    ("topic", "query"),
    [
        ("oncology", "cancer survival"),
        ("immunology", "autoantibody"),
        ("cardiology", "heart failure"),
        ("gene editing", "CRISPR"),
        ("infectious disease", "vaccination"),
        ("neuroscience", "Parkinson"),
    ],
)
def test_every_topic_has_its_share_and_can_be_found(topic: str, query: str) -> None:
    records = synthetic_corpus()
    in_topic = [record for record in records if f"({topic})" in record.abstract]

    found = rank_records(records, query, limit=5)

    assert len(in_topic) == 300 // len(SYNTHETIC_TOPICS)
    assert found and all(record in in_topic for record in found)
