"""Horizon's articles as sources: PMID, title, journal and year, a PubMed link."""

from __future__ import annotations

from horizon.tools.common import article_source


def test_an_article_is_a_source_with_its_pubmed_link() -> None:
    source = article_source(
        pmid="38012345",
        title="Prime  editing\nin vivo",
        journal="Nature",
        year=2024,
        abstract="Prime editing corrects mutations.",
    )

    assert source.id == "38012345"
    assert source.title == "Prime editing in vivo"
    assert source.url == "https://pubmed.ncbi.nlm.nih.gov/38012345/"
    assert source.detail == "PMID 38012345 · Nature, 2024"
    assert source.snippet == "Prime editing corrects mutations."


def test_a_synthetic_record_has_no_link() -> None:
    source = article_source(pmid="SYN000001", title="A sample")

    assert source.url is None
    assert source.detail == "PMID SYN000001"
