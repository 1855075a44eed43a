from __future__ import annotations

import gzip
import io
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast
from xml.sax.saxutils import escape

import psutil
import pytest
from hypothesis import given
from hypothesis import strategies as st

from horizon.pubmed import (
    ArticleRecord,
    DeletedCitation,
    PubmedParseError,
    iter_pubmed_xml,
    parse_pubmed_xml,
    read_pubmed_xml,
)


def _article(
    pmid: str = "1",
    *,
    title: str = "A title",
    abstract: str = "<AbstractText>Text.</AbstractText>",
    article_extra: str = "",
    pub_date: str = "<Year>2020</Year>",
    pubmed_data: str = "",
) -> str:
    return (
        "<PubmedArticle><MedlineCitation><PMID>" + pmid + "</PMID><Article>"
        "<Journal><Title>Journal of Tests</Title><JournalIssue><PubDate>" + pub_date +
        "</PubDate></JournalIssue></Journal>"
        "<ArticleTitle>" + title + "</ArticleTitle>"
        "<Abstract>" + abstract + "</Abstract>" + article_extra +
        "</Article></MedlineCitation>" + pubmed_data + "</PubmedArticle>"
    )  # fmt: skip


def _article_set(*articles: str, doctype: str = "") -> bytes:
    body = "".join(articles)
    return f'<?xml version="1.0"?>\n{doctype}<PubmedArticleSet>{body}</PubmedArticleSet>'.encode()


def _by_pmid(path: Path) -> dict[str, ArticleRecord]:
    return {record.pmid: record for record in parse_pubmed_xml(path)}


def test_medline_update_file_has_604_records_and_one_deletion(corpus_dir: Path) -> None:
    result = read_pubmed_xml(corpus_dir / "medline16n0902.xml.gz")

    assert len(result.records) == 604
    assert len({record.pmid for record in result.records}) == 604
    assert result.deleted_pmids == ("26432306",)
    assert result.skipped == 0
    assert {record.source for record in result.records} == {"medline16n0902.xml.gz"}


def test_pmparser_baseline_and_update_samples_keep_revisions_and_deletions(
    corpus_dir: Path,
) -> None:
    records: list[ArticleRecord] = []
    deleted: list[str] = []
    for path in sorted((corpus_dir / "pmparser_sample").rglob("*.xml.gz")):
        records += parse_pubmed_xml(path, on_delete=deleted.append)

    assert len(records) == 419
    assert len({record.pmid for record in records}) == 403
    assert len(deleted) == 316


def test_metapub_files_hold_the_record_their_name_promises(corpus_dir: Path) -> None:
    paths = sorted((corpus_dir / "metapub_pmid_xml").glob("*.xml"))
    found = {path.stem: [r.pmid for r in parse_pubmed_xml(path)] for path in paths}

    assert len(paths) == 164
    assert found.pop("37909814") == []  # a real efetch answer with no record
    assert all(pmids == [stem] for stem, pmids in found.items())


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            "medline16n0902.xml.gz",
            {"records": 604, "title": 604, "abstract": 526, "authors": 603, "year": 604},
        ),
        (
            "pmparser_sample/*/*.xml.gz",
            # SOURCES.md counts 418 ArticleTitles; the 419th record has only a VernacularTitle.
            {"records": 419, "title": 419, "abstract": 366, "authors": 404, "year": 419},
        ),
        (
            "metapub_pmid_xml/*.xml",
            {"records": 163, "title": 163, "abstract": 145, "authors": 162, "year": 163},
        ),
    ],
)
def test_field_coverage_matches_the_counts_in_sources_md(
    corpus_dir: Path, files: str, expected: dict[str, int]
) -> None:
    records = [r for path in sorted(corpus_dir.glob(files)) for r in parse_pubmed_xml(path)]

    coverage = {
        "records": len(records),
        "title": sum(bool(r.title) for r in records),
        "abstract": sum(bool(r.abstract) for r in records),
        "authors": sum(bool(r.authors) for r in records),
        "year": sum(r.year is not None for r in records),
    }
    assert coverage == expected
    assert all(r.pmid.isdigit() and r.journal for r in records)


def test_medline_file_dois_come_from_its_579_elocation_ids(corpus_dir: Path) -> None:
    records = list(parse_pubmed_xml(corpus_dir / "medline16n0902.xml.gz"))

    assert sum(r.doi is not None for r in records) == 579
    assert all(r.doi.startswith("10.") for r in records if r.doi is not None)


def test_a_record_reads_as_pubmed_shows_it(corpus_dir: Path) -> None:
    record = _by_pmid(corpus_dir / "medline16n0902.xml.gz")["17942999"]

    assert record.title == (
        "Neuroplasticity in the processing of pitch dimensions: a multidimensional "
        "scaling analysis of the mismatch negativity."
    )
    assert record.authors == ("Chandrasekaran B", "Gandour JT", "Krishnan A")
    assert record.journal == "Restorative neurology and neuroscience"
    assert record.year == 2007
    assert "Pitch Perception" in record.mesh_terms


def test_structured_abstract_sections_become_labelled_paragraphs(corpus_dir: Path) -> None:
    abstract = _by_pmid(corpus_dir / "medline16n0902.xml.gz")["17942999"].abstract
    paragraphs = abstract.split("\n\n")

    assert [p.split(":")[0] for p in paragraphs] == ["PURPOSE", "METHODS", "RESULTS", "CONCLUSIONS"]
    assert paragraphs[0].startswith("PURPOSE: An auditory electrophysiological study")


def test_unlabelled_section_keeps_its_text_without_the_label(corpus_dir: Path) -> None:
    record = _by_pmid(corpus_dir / "metapub_pmid_xml" / "38329942.xml")["38329942"]

    assert record.abstract.startswith("Imbalanced gut microbiota (GM) and abnormal fecal bile")
    assert "UNLABELLED" not in record.abstract


def test_inline_markup_keeps_its_text(corpus_dir: Path) -> None:
    macaques = _by_pmid(corpus_dir / "metapub_pmid_xml" / "36176722.xml")["36176722"]
    xrf = _by_pmid(corpus_dir / "metapub_pmid_xml" / "37167981.xml")["37167981"]
    baseline = _by_pmid(corpus_dir / "pmparser_sample" / "baseline" / "pubmed20n1015.xml.gz")

    assert macaques.title.endswith("captive rhesus macaques (Macaca mulatta).")
    assert xrf.title.startswith("Monte Carlo simulation of micro-x-ray fluorescence (μ-XRF)")
    assert baseline["31833365"].title == (
        "Direct Laser Patterning and Phase Transformation of 2D PdSe2 Films "
        "for On-Demand Device Fabrication."
    )
    assert baseline["31814964"].abstract.startswith("Background: Cell-free DNA (cfDNA)")


def test_mathml_in_an_abstract_is_flattened_to_text(pubmed_dir: Path) -> None:
    records = read_pubmed_xml(pubmed_dir / "fixtures" / "biopython" / "pubmed7.xml").records

    assert [r.pmid for r in records] == ["29963580"]
    assert records[0].abstract
    assert "<" not in records[0].abstract and "mml" not in records[0].abstract


def test_medline_date_gives_the_year(corpus_dir: Path) -> None:
    # PubDate is <MedlineDate>2008 Jul-Aug</MedlineDate>
    assert _by_pmid(corpus_dir / "medline16n0902.xml.gz")["18621939"].year == 2008


def test_article_date_is_the_year_when_pub_date_has_none() -> None:
    xml = _article_set(
        _article(
            pub_date="<Season>Spring</Season>",
            article_extra='<ArticleDate DateType="Electronic"><Year>2019</Year></ArticleDate>',
        ),
        _article("2", pub_date="<Season>Spring</Season>"),
    )

    assert [r.year for r in parse_pubmed_xml(xml)] == [2019, None]


def test_collective_names_are_authors_in_their_place(corpus_dir: Path) -> None:
    records = _by_pmid(corpus_dir / "medline16n0902.xml.gz")

    assert records["25345997"].authors[:2] == ("Movement Disorder Group", "Chan AY")
    assert records["26092286"].authors[-1] == "ROBIS group"


def test_doi_comes_from_the_article_id_list_when_there_is_no_elocation_id(
    corpus_dir: Path,
) -> None:
    record = _by_pmid(corpus_dir / "metapub_pmid_xml" / "11618220.xml")["11618220"]

    assert record.doi == "10.1163/156853287x00032"


def test_doi_ignores_the_dois_of_cited_references() -> None:
    references = (
        "<PubmedData><ReferenceList><Reference><ArticleIdList>"
        '<ArticleId IdType="doi">10.1000/cited</ArticleId>'
        "</ArticleIdList></Reference></ReferenceList></PubmedData>"
    )
    own = (
        '<PubmedData><ArticleIdList><ArticleId IdType="doi">10.1000/own</ArticleId></ArticleIdList>'
    )
    xml = _article_set(
        _article("1", pubmed_data=references),
        _article("2", pubmed_data=own + "</PubmedData>"),
        _article("3", article_extra='<ELocationID EIdType="doi">doi: 10.1000/eloc</ELocationID>'),
    )

    assert [r.doi for r in parse_pubmed_xml(xml)] == [None, "10.1000/own", "10.1000/eloc"]


def test_empty_article_title_falls_back_to_the_vernacular_title(corpus_dir: Path) -> None:
    path = corpus_dir / "pmparser_sample" / "baseline" / "pubmed26n1334.xml.gz"

    assert _by_pmid(path)["41605226"].title.startswith("Kommentar zu „ABDOMEN BECKEN")


def test_a_record_without_a_pmid_is_skipped_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    xml = _article_set(_article("1"), _article(""), _article("3"))
    reasons: list[str] = []

    with caplog.at_level(logging.WARNING, logger="horizon.pubmed.parse"):
        records = list(parse_pubmed_xml(xml, source_name="update.xml", on_skip=reasons.append))

    assert [r.pmid for r in records] == ["1", "3"]
    assert reasons == ["record 2 in update.xml: missing or invalid PMID ''"]
    assert "record 2 in update.xml" in caplog.text
    assert read_pubmed_xml(xml).skipped == 1


def test_deletions_come_in_document_order_with_the_records() -> None:
    xml = _article_set(
        _article("1"), "<DeleteCitation><PMID>7</PMID><PMID>8</PMID></DeleteCitation>"
    )

    assert list(iter_pubmed_xml(xml, source_name="u.xml")) == [
        ArticleRecord("1", "A title", "Text.", (), "Journal of Tests", 2020, None, (), "u.xml"),
        DeletedCitation("7", "u.xml"),
        DeletedCitation("8", "u.xml"),
    ]


def test_external_entities_are_never_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    dtd = tmp_path / "evil.dtd"
    dtd.write_text(f'<!ENTITY outside SYSTEM "{secret.as_uri()}">')
    internal = f'<!DOCTYPE PubmedArticleSet [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>\n'
    external = f'<!DOCTYPE PubmedArticleSet SYSTEM "{dtd.as_uri()}">\n'

    with_subset = read_pubmed_xml(_article_set(_article(title="A &xxe; B"), doctype=internal))
    with_dtd = read_pubmed_xml(_article_set(_article(title="A &outside; B"), doctype=external))

    assert with_subset.records[0].title == "A B"
    assert with_dtd.records[0].title == "A B"


def _laughs(depth: int) -> str:
    nested = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, depth + 1))
    return f'<!DOCTYPE PubmedArticleSet [<!ENTITY l0 "lol">{nested}]>\n'


def test_internal_entities_are_not_expanded() -> None:
    xml = _article_set(_article(title="A &l3; B"), doctype=_laughs(3))

    assert read_pubmed_xml(xml).records[0].title == "A B"


def test_an_entity_bomb_is_refused() -> None:
    xml = _article_set(_article(title="A &l9; B"), doctype=_laughs(9))

    with pytest.raises(PubmedParseError, match="amplification"):
        read_pubmed_xml(xml)


def test_gzipped_and_plain_xml_give_equal_records(corpus_dir: Path) -> None:
    packed = (corpus_dir / "medline16n0902.xml.gz").read_bytes()
    plain = (corpus_dir / "metapub_pmid_xml" / "32306807.xml").read_bytes()

    assert read_pubmed_xml(packed) == read_pubmed_xml(gzip.decompress(packed))
    assert read_pubmed_xml(plain) == read_pubmed_xml(gzip.compress(plain))
    assert read_pubmed_xml(io.BytesIO(packed)) == read_pubmed_xml(packed)


def test_a_path_labels_records_with_its_file_name_unless_told_otherwise(
    corpus_dir: Path,
) -> None:
    path = corpus_dir / "metapub_pmid_xml" / "32306807.xml"

    assert next(parse_pubmed_xml(path)).source == "32306807.xml"
    assert next(parse_pubmed_xml(str(path), source_name="eutils")).source == "eutils"


def test_an_unseekable_gzip_stream_is_read(corpus_dir: Path) -> None:
    packed = (corpus_dir / "medline16n0902.xml.gz").read_bytes()

    records = list(parse_pubmed_xml(cast(IO[bytes], _Unseekable(packed))))

    assert len(records) == 604


def test_an_ncbi_error_document_is_not_pubmed_xml() -> None:
    error = b"<eFetchResult><ERROR>Empty id list - nothing todo</ERROR></eFetchResult>"

    with pytest.raises(PubmedParseError, match="eFetchResult"):
        read_pubmed_xml(error)


def test_a_truncated_file_fails_after_the_records_before_the_damage(corpus_dir: Path) -> None:
    packed = (corpus_dir / "medline16n0902.xml.gz").read_bytes()
    records: list[ArticleRecord] = []

    with pytest.raises(PubmedParseError, match="medline"):
        records.extend(parse_pubmed_xml(packed[: len(packed) // 2], source_name="medline"))
    assert 100 < len(records) < 604


def test_the_first_record_arrives_before_the_file_is_read() -> None:
    stream = _Generated(10_000)

    first = next(parse_pubmed_xml(io.BufferedReader(stream)))

    assert first.pmid == "1"
    assert stream.bytes_read < stream.total_size / 50


def test_memory_stays_bounded_while_parsing_a_large_file() -> None:
    # Keeping every parsed element would cost about 50 MB here (measured).
    process = psutil.Process()
    before = process.memory_info().rss
    peak = before
    count = 0
    for _record in parse_pubmed_xml(io.BufferedReader(_Generated(10_000))):
        count += 1
        if count % 500 == 0:
            peak = max(peak, process.memory_info().rss)

    assert count == 10_000
    assert peak - before < 15_000_000


_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Cn"), blacklist_characters="\ufffe\uffff"),
    max_size=60,
)


@given(
    title=_TEXT,
    sections=st.lists(st.tuples(st.sampled_from(["", "BACKGROUND", "Results"]), _TEXT), max_size=4),
)
def test_title_and_abstract_text_survive_parsing(
    title: str, sections: list[tuple[str, str]]
) -> None:
    abstract = "".join(
        f'<AbstractText Label="{label}">{escape(text)}</AbstractText>'
        if label
        else f"<AbstractText>{escape(text)}</AbstractText>"
        for label, text in sections
    )

    (record,) = parse_pubmed_xml(_article_set(_article(title=escape(title), abstract=abstract)))

    assert record.title == " ".join(title.split())
    assert record.abstract == "\n\n".join(
        f"{label}: {' '.join(text.split())}" if label else " ".join(text.split())
        for label, text in sections
        if text.split()
    )


class _Unseekable(io.RawIOBase):
    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        chunk = self._data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


class _Generated(io.RawIOBase):
    """A PubmedArticleSet of `count` records, made as it is read."""

    _RECORD = _article(
        "{pmid}", abstract="<AbstractText Label='A'>" + "word " * 300 + "</AbstractText>"
    )

    def __init__(self, count: int) -> None:
        self._chunks = self._produce(count)
        self._pending = b""
        self.bytes_read = 0
        self.total_size = len(self._RECORD) * count

    def _produce(self, count: int) -> Iterator[bytes]:
        yield b"<PubmedArticleSet>"
        for pmid in range(1, count + 1):
            yield self._RECORD.replace("{pmid}", str(pmid)).encode()
        yield b"</PubmedArticleSet>"

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while len(self._pending) < len(buffer):
            chunk = next(self._chunks, None)
            if chunk is None:
                break
            self._pending += chunk
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        self.bytes_read += size
        return size
