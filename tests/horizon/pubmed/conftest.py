"""Where the real PubMed files live, and a fake E-utilities server serving them.

The files come from other repositories and stay in ../shared (next to the repository)
or under $PAGECHAT_SHARED_DIR; they are read in place, never copied. Without them
the tests that need them skip — except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.eutils_server import FakeEutils

REPO_ROOT = Path(__file__).resolve().parents[3]


def _shared_dir() -> Path:
    override = os.environ.get("PAGECHAT_SHARED_DIR")
    return Path(override) if override else REPO_ROOT.parent / "shared"


@pytest.fixture(scope="session")
def pubmed_dir() -> Path:
    path = _shared_dir() / "data" / "pubmed"
    if not (path / "SOURCES.md").is_file():
        reason = (
            f"real PubMed data not found at {path} (set PAGECHAT_SHARED_DIR to the shared folder)"
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def corpus_dir(pubmed_dir: Path) -> Path:
    return pubmed_dir / "corpus"


@pytest.fixture(scope="session")
def _eutils_server(pubmed_dir: Path) -> Iterator[FakeEutils]:
    with FakeEutils(pubmed_dir) as server:
        yield server


@pytest.fixture
def fake_eutils(_eutils_server: FakeEutils) -> Iterator[FakeEutils]:
    _eutils_server.reset()
    yield _eutils_server
    _eutils_server.reset()
