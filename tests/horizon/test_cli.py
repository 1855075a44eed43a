"""`horizon ...`: importing PubMed files, the synthetic sample, and first-start data."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from horizon.cli import main


@pytest.fixture
def database(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    return sqlite_url


def test_import_reads_a_folder_and_prints_what_it_stored(
    database: str, corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(corpus_dir)]) == 0

    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(
        "medline16n0902.xml.gz: 604 records read: 604 new, 0 updated; 1 deletions read: 0 deleted"
    )
    assert len(out) == 1 + 164 + 14 + 1  # a line per file, then the total
    assert out[-1] == (
        "Total: 1186 records read: 1170 new, 16 updated; 317 deletions read: 0 deleted. "
        "The store holds 1170 articles."
    )


def test_importing_the_same_file_again_updates_it(
    database: str, corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corpus_dir / "metapub_pmid_xml" / "37909814.xml"  # an empty result set
    other = next(p for p in sorted(path.parent.glob("*.xml")) if p != path)

    assert main(["import", str(path), str(other)]) == 0
    assert main(["import", str(other)]) == 0

    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(
        "37909814.xml: 0 records read: 0 new, 0 updated; 0 deletions read: 0 deleted"
    )
    assert out[-1] == (
        "Total: 1 records read: 0 new, 1 updated; 0 deletions read: 0 deleted. "
        "The store holds 1 articles."
    )


def test_sample_imports_the_synthetic_corpus(
    database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sample", "--count", "25"]) == 0

    assert capsys.readouterr().out == (
        "Synthetic sample: 25 records read: 25 new, 0 updated; 0 deletions read: 0 deleted. "
        "The store holds 25 articles.\n"
    )


def test_seed_demo_makes_the_account_and_its_streams_once(
    database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-demo", "--shared", str(tmp_path)]) == 0
    assert main(["seed-demo", "--shared", str(tmp_path)]) == 0

    first, again = capsys.readouterr().out.split("Demo account: ")[1:]
    assert first.splitlines() == [
        "demo@example.com / demo (created)",
        "Articles from the synthetic sample: 300 records read: 300 new, 0 updated; "
        "0 deletions read: 0 deleted. The store holds 300.",
        "Demo streams (created): 3 streams, 9 reports.",
    ]
    assert again.splitlines() == [
        "demo@example.com / demo (already there; its password is left as it is)",
        "Articles: the store holds 300 articles already.",
        "Demo streams (already there): 3 streams, 9 reports.",
    ]


def test_setup_fills_the_store_and_waits_for_the_demo_account(
    database: str, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["setup", "--shared", str(shared_dir)]) == 0

    assert capsys.readouterr().out.splitlines() == [
        "Articles from PubMed files: 1186 records read: 1170 new, 16 updated; "
        "317 deletions read: 0 deleted. The store holds 1170.",
        "No demo account (demo@example.com): no demo streams made.",
    ]


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "no such file or folder"), (b"<html>not pubmed</html>", "bad.xml.gz: ")],
)
def test_bad_input_is_an_error_message(
    database: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes | None,
    says: str,
) -> None:
    path = tmp_path / "bad.xml.gz"
    if content is not None:
        path.write_bytes(gzip.compress(content))

    assert main(["import", str(path)]) == 1

    err = capsys.readouterr().err
    assert err.startswith("horizon: error: ") and says in err
