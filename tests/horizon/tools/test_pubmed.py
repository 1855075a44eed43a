"""`search_pubmed` and `get_pubmed_article`, on the local store and through E-utilities."""

from __future__ import annotations

import re

import jsonschema
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from horizon.domain import get_article
from horizon.payloads import (
    PUBMED_ARTICLE,
    PUBMED_ARTICLE_SCHEMA,
    PUBMED_SEARCH_RESULTS,
    PUBMED_SEARCH_RESULTS_SCHEMA,
)
from horizon.pubmed import ArticleRecord
from pagechat.agent import AgentApprovalRequested
from tests.conftest import Account
from tests.fakes.eutils_server import FakeEutils
from tests.horizon.tools.conftest import Call

_LINE = re.compile(r"^\d+\. PMID (\S+) — (.+) \((.+), (\d{4})\)$")


async def test_a_search_reports_progress_then_lists_the_articles(
    call: Call, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    ran = await call(alice, "search_pubmed", {"query": "CRISPR-Cas9 editing", "max_results": 12})

    stages = [p.stage for p in ran.progress]
    fractions = [p.progress for p in ran.progress if p.stage == "fetching"]
    assert stages[0] == "searching" and stages[-1] == "done"
    assert set(stages) == {"searching", "fetching", "done"}
    assert fractions == [0.0, 5 / 12, 10 / 12] and ran.progress[-1].progress == 1.0
    assert not ran.result.is_error
    head, *lines = ran.text.splitlines()
    assert head.startswith("Found ") and '"CRISPR-Cas9 editing"' in head
    assert len(lines) == 12
    by_pmid = {r.pmid: r for r in sample_articles}
    for line in lines:
        match = _LINE.match(line)
        assert match is not None, line
        record = by_pmid[match.group(1)]
        assert match.group(2) == record.title
        assert (match.group(3), int(match.group(4))) == (record.journal, record.year)
        assert "editing" in f"{record.title} {record.abstract}"
    assert "CRISPR-Cas9 editing" in lines[0]


async def test_the_search_payload_is_a_results_card(
    call: Call, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    ran = await call(alice, "search_pubmed", {"query": "heart failure"})

    payload = ran.result.payload
    assert payload is not None and payload["type"] == PUBMED_SEARCH_RESULTS
    data = payload["data"]
    jsonschema.validate(data, PUBMED_SEARCH_RESULTS_SCHEMA)
    assert data["query"] == "heart failure"
    assert data["source"] == "local" and " in the local article store" in ran.text
    assert not isinstance(ran.events[0], AgentApprovalRequested)
    assert len(data["articles"]) == 10 and data["total"] >= 10
    first = data["articles"][0]
    assert set(first) == {"pmid", "title", "authors", "journal", "year", "doi", "abstract"}
    assert len(first["abstract"]) <= 301
    assert [a["pmid"] for a in data["articles"]] == re.findall(r"PMID (\S+) —", ran.text)


async def test_a_search_that_finds_nothing_says_so(
    call: Call, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    ran = await call(alice, "search_pubmed", {"query": "xylophone"})

    assert not ran.result.is_error
    assert ran.text == 'No articles found for "xylophone" in the local article store.'
    assert ran.result.payload is not None
    assert ran.result.payload["data"] == {
        "query": "xylophone",
        "total": 0,
        "articles": [],
        "source": "local",
    }


async def test_an_article_comes_with_its_whole_record(
    call: Call, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    record = sample_articles[3]

    ran = await call(alice, "get_pubmed_article", {"pmid": record.pmid})

    assert f"PMID: {record.pmid}" in ran.text and f"Title: {record.title}" in ran.text
    assert f"Journal: {record.journal}" in ran.text and f"Year: {record.year}" in ran.text
    assert ran.text.endswith(f"Abstract: {record.abstract}")
    payload = ran.result.payload
    assert payload is not None and payload["type"] == PUBMED_ARTICLE
    jsonschema.validate(payload["data"], PUBMED_ARTICLE_SCHEMA)
    assert payload["data"]["abstract"] == record.abstract
    assert payload["data"]["authors"] == list(record.authors)


@pytest.mark.parametrize(
    ("pmid", "says"),
    [
        ("99999999", "PMID 99999999 was not found in the local article store."),
        ("not a pmid", "'not a pmid' is not a PubMed ID"),
    ],
)
async def test_an_unknown_article_is_an_error_the_model_reads(
    call: Call, alice: Account, sample_articles: list[ArticleRecord], pmid: str, says: str
) -> None:
    ran = await call(alice, "get_pubmed_article", {"pmid": pmid})

    assert ran.result.is_error
    assert ran.text.startswith(says)


async def test_without_a_database_the_tools_say_so(call: Call, alice: Account) -> None:
    ran = await call(alice, "search_pubmed", {"query": "CRISPR"}, with_session=False)

    assert ran.result.is_error
    assert "need the app's database" in ran.text


async def test_eutils_searches_pubmed_and_keeps_the_records(
    call: Call,
    alice: Account,
    session: AsyncSession,
    fake_eutils: FakeEutils,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HORIZON_PUBMED", "eutils")
    monkeypatch.setenv("HORIZON_EUTILS_URL", fake_eutils.base_url)
    monkeypatch.setenv("NCBI_API_KEY", "test-key")

    ran = await call(alice, "search_pubmed", {"query": "therapy", "max_results": 6})

    # An online search asks the user first; the local library does not.
    asked = ran.events[0]
    assert isinstance(asked, AgentApprovalRequested)
    assert asked.reason == "Sends the query “therapy” to PubMed (NCBI) online."
    assert not ran.result.is_error, ran.text
    assert ran.progress[0].stage == "searching"
    assert [p.progress for p in ran.progress if p.stage == "fetching"] == [0.0, 5 / 6]
    payload = ran.result.payload
    assert payload is not None
    jsonschema.validate(payload["data"], PUBMED_SEARCH_RESULTS_SCHEMA)
    assert payload["data"]["source"] == "pubmed"
    pmids = [a["pmid"] for a in payload["data"]["articles"]]
    assert len(pmids) == 6 and " in PubMed; the best 6:" in ran.text.splitlines()[0]
    for pmid in pmids:
        stored = await get_article(session=session, pmid=pmid)
        assert stored is not None and stored.source == "eutils"
    requests = fake_eutils.requests_to("efetch")
    assert [r.params["api_key"] for r in requests] == ["test-key", "test-key"]


async def test_eutils_failures_are_errors_the_model_reads(
    call: Call, alice: Account, fake_eutils: FakeEutils, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HORIZON_PUBMED", "eutils")
    monkeypatch.setenv("HORIZON_EUTILS_URL", fake_eutils.base_url)
    fake_eutils.fail_next(1, status=400, retry_after=None)

    ran = await call(alice, "get_pubmed_article", {"pmid": "12345678"})

    assert ran.result.is_error
    assert ran.text.startswith("Fetching PMID 12345678 from PubMed failed:")
