from __future__ import annotations

from pathlib import Path

from horizon.pubmed import ArticleRecord, iter_corpus, match_score, rank_records, tokenize


def _record(
    pmid: str,
    title: str = "",
    abstract: str = "",
    mesh: tuple[str, ...] = (),
    year: int | None = 2020,
) -> ArticleRecord:
    return ArticleRecord(pmid, title, abstract, (), "J", year, None, mesh, "test")


def test_tokenize_lowercases_splits_and_drops_stop_words() -> None:
    assert tokenize("The role of CRISPR-Cas9 in COVID-19") == [
        "role",
        "crispr",
        "cas9",
        "covid",
        "19",
    ]


def test_tokenize_folds_plurals_to_singular() -> None:
    assert tokenize("cells therapies viruses diseases classes") == [
        "cell", "therapy", "virus", "disease", "class",
    ]  # fmt: skip
    assert tokenize("sepsis analysis virus") == ["sepsis", "analysis", "virus"]


def test_a_title_hit_outranks_an_abstract_hit() -> None:
    in_title = _record("1", title="Sepsis in children")
    in_abstract = _record("2", title="Paediatric care", abstract="Sepsis was common.")

    assert match_score(in_title, "sepsis") > match_score(in_abstract, "sepsis") > 0


def test_matching_every_word_outranks_matching_one_everywhere() -> None:
    both = _record("1", abstract="Malaria vaccine trial.")
    one = _record("2", title="Malaria", abstract="Malaria.", mesh=("Malaria",))

    assert match_score(both, "malaria vaccines") > match_score(one, "malaria vaccines")


def test_no_common_word_scores_zero() -> None:
    record = _record("1", title="Heart failure", abstract="Cardiology.")

    assert match_score(record, "tuberculosis") == 0.0
    assert match_score(record, "the of and") == 0.0


def test_rank_records_drops_non_matches_and_breaks_ties_by_year() -> None:
    old = _record("1", title="Asthma in adults", year=2001)
    new = _record("2", title="Asthma in adults", year=2022)
    partial = _record("3", abstract="Adults with asthma")
    other = _record("4", title="Gout")

    assert rank_records([old, other, partial, new], "asthma") == [new, old, partial]
    assert rank_records([old, other, partial, new], "asthma", limit=1) == [new]


def test_ranking_the_real_corpus_finds_the_paper_about_it(corpus_dir: Path) -> None:
    records = list(iter_corpus(corpus_dir / "metapub_pmid_xml"))

    best = rank_records(records, "Klebsiella siderophore iron", limit=3)

    assert best[0].pmid == "38591913"
