from __future__ import annotations

import asyncio
import itertools
import json
import socket
from pathlib import Path

import httpx
import pytest

from horizon.pubmed import (
    EutilsClient,
    EutilsError,
    iter_corpus,
    read_pubmed_xml,
)
from tests.fakes.eutils_server import FakeEutils


def _client(fake: FakeEutils, **options: object) -> EutilsClient:
    options.setdefault("requests_per_second", 50.0)
    options.setdefault("backoff", 0.01)
    return EutilsClient(fake.base_url, **options)  # type: ignore[arg-type]


def _saved_search(pubmed_dir: Path) -> dict[str, object]:
    path = pubmed_dir / "fixtures" / "ncbi_eutils_json" / "esearch.pubmed.json"
    result: dict[str, object] = json.loads(path.read_text())["esearchresult"]
    return result


async def test_esearch_reads_ncbi_json(fake_eutils: FakeEutils, pubmed_dir: Path) -> None:
    saved = _saved_search(pubmed_dir)

    async with _client(fake_eutils) as client:
        result = await client.esearch("cancer", retmax=5)

    assert result.count == 15169
    assert result.pmids == saved["idlist"][:5]  # type: ignore[index]
    assert result.query_translation == saved["querytranslation"]
    assert result.warnings == ()


async def test_esearch_pages_with_retstart(fake_eutils: FakeEutils) -> None:
    async with _client(fake_eutils) as client:
        first = await client.esearch("biopython", retmax=20)
        page = await client.esearch("biopython", retmax=3, retstart=5)

    assert first.count == page.count == 63
    assert page.pmids == first.pmids[5:8]
    assert page.query_translation == '"biopython"[All Fields]'


async def test_esearch_without_hits_reports_ncbi_warnings(fake_eutils: FakeEutils) -> None:
    async with _client(fake_eutils) as client:
        result = await client.esearch("abcXYZ")

    assert (result.count, result.pmids) == (0, [])
    assert result.warnings == ("phrase not found: abcXYZ", "No items found.")


async def test_esearch_sends_sort_and_date_range(fake_eutils: FakeEutils) -> None:
    async with _client(fake_eutils) as client:
        await client.esearch("cancer", sort="pub_date", mindate="2020", maxdate="2021/06/30")
        with pytest.raises(ValueError, match="both"):
            await client.esearch("cancer", mindate="2020")

    (request,) = fake_eutils.requests_to("esearch")
    assert request.params["sort"] == "pub_date"
    assert (request.params["mindate"], request.params["maxdate"]) == ("2020", "2021/06/30")
    assert request.params["datetype"] == "pdat"


async def test_an_error_in_the_esearch_answer_raises(pubmed_dir: Path) -> None:
    saved = (pubmed_dir / "fixtures" / "ncbi_eutils_json" / "esearch.baderror.json").read_bytes()
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=saved))

    async with EutilsClient(transport=transport) as client:
        with pytest.raises(EutilsError, match="Invalid db name specified: fleegle") as caught:
            await client.esearch("cancer")

    assert caught.value.status == 200


async def test_efetch_returns_the_records_of_the_corpus_files(
    fake_eutils: FakeEutils, corpus_dir: Path
) -> None:
    pmids = ["38591913", "11618220", "36176722"]

    async with _client(fake_eutils) as client:
        records = await client.efetch(pmids)

    expected = [
        read_pubmed_xml(
            corpus_dir / "metapub_pmid_xml" / f"{pmid}.xml", source_name="eutils"
        ).records[0]
        for pmid in pmids
    ]
    assert records == expected
    (request,) = fake_eutils.requests_to("efetch")
    assert request.method == "GET"
    assert request.params["id"] == "38591913,11618220,36176722"


async def test_efetch_leaves_out_pmids_without_a_record(fake_eutils: FakeEutils) -> None:
    async with _client(fake_eutils) as client:
        records = await client.efetch(["37909814", "38591913", "1", "38591913"])

    assert [record.pmid for record in records] == ["38591913"]
    (request,) = fake_eutils.requests_to("efetch")
    assert request.params["id"] == "37909814,38591913,1"


async def test_efetch_posts_batches_of_at_most_the_batch_size(
    fake_eutils: FakeEutils, corpus_dir: Path
) -> None:
    corpus = {record.pmid: record for record in iter_corpus(corpus_dir / "metapub_pmid_xml")}
    pmids = sorted(corpus)

    async with _client(fake_eutils, efetch_batch_size=60) as client:
        records = await client.efetch(pmids)

    assert [record.pmid for record in records] == pmids
    assert all(record.title == corpus[record.pmid].title for record in records)
    requests = fake_eutils.requests_to("efetch")
    assert [len(r.params["id"].split(",")) for r in requests] == [60, 60, 43]
    assert [r.method for r in requests] == ["POST", "POST", "GET"]


async def test_efetch_refuses_ids_that_are_not_pubmed_ids(fake_eutils: FakeEutils) -> None:
    async with _client(fake_eutils) as client:
        with pytest.raises(ValueError, match="SYN000001"):
            await client.efetch(["38591913", "SYN000001"])

    assert fake_eutils.requests == []


async def test_an_efetch_answer_without_records_raises() -> None:
    body = b"<eFetchResult><ERROR>Empty id list - nothing todo</ERROR></eFetchResult>"
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))

    async with EutilsClient(transport=transport) as client:
        with pytest.raises(EutilsError, match="Empty id list - nothing todo"):
            await client.efetch(["1"])


async def test_search_finds_and_fetches_whole_records(fake_eutils: FakeEutils) -> None:
    async with _client(fake_eutils) as client:
        records = await client.search("siderophore iron", max_results=5)

    assert records
    assert all("siderophore" in (r.title + r.abstract).lower() for r in records)
    assert "38591913" in {record.pmid for record in records}
    assert [r.params["retmax"] for r in fake_eutils.requests_to("esearch")] == ["5"]


async def test_concurrent_calls_share_one_rate_limit(fake_eutils: FakeEutils) -> None:
    rate = 10.0

    async with _client(fake_eutils, requests_per_second=rate) as client:
        await asyncio.gather(*(client.esearch("cancer", retmax=1) for _ in range(7)))

    arrivals = sorted(request.time for request in fake_eutils.requests)
    gaps = [later - earlier for earlier, later in itertools.pairwise(arrivals)]
    assert len(arrivals) == 7
    # Arrival times jitter a little around the client's evenly spaced sends.
    assert min(gaps) >= 1 / rate - 0.03
    assert arrivals[-1] - arrivals[0] >= 6 / rate - 0.03


@pytest.mark.parametrize(
    ("options", "rate"),
    [({}, 3), ({"api_key": "key"}, 10), ({"api_key": "key", "requests_per_second": 5}, 5)],
)
async def test_the_default_rate_is_three_per_second_or_ten_with_an_api_key(
    options: dict[str, object], rate: float
) -> None:
    async with EutilsClient(**options) as client:  # type: ignore[arg-type]
        assert client.rate_limiter.rate == rate


async def test_every_request_names_the_tool_and_sends_the_api_key(
    fake_eutils: FakeEutils,
) -> None:
    async with _client(fake_eutils, api_key="secret-key", email="dev@example.org") as client:
        await client.search("siderophore", max_results=2)

    assert len(fake_eutils.requests) == 2
    for request in fake_eutils.requests:
        assert request.params["api_key"] == "secret-key"
        assert request.params["tool"] == "horizon"
        assert request.params["email"] == "dev@example.org"


async def test_rate_limited_requests_are_retried(fake_eutils: FakeEutils) -> None:
    fake_eutils.fail_next(2, status=429, retry_after="0")

    async with _client(fake_eutils) as client:
        result = await client.esearch("cancer", retmax=1)

    assert result.count == 15169
    assert len(fake_eutils.requests) == 3


async def test_a_retry_waits_as_long_as_retry_after_says(fake_eutils: FakeEutils) -> None:
    fake_eutils.fail_next(1, status=503, retry_after="1")

    async with _client(fake_eutils) as client:
        await client.efetch(["38591913"])

    first, second = fake_eutils.requests
    assert second.time - first.time >= 0.95


async def test_retries_stop_and_the_status_is_reported(fake_eutils: FakeEutils) -> None:
    fake_eutils.fail_next(5, status=429, retry_after="0")

    async with _client(fake_eutils, api_key="secret-key", max_retries=2) as client:
        with pytest.raises(EutilsError, match="API rate limit exceeded") as caught:
            await client.esearch("cancer")

    assert caught.value.status == 429
    assert "secret-key" not in str(caught.value)
    assert len(fake_eutils.requests) == 3


async def test_a_client_error_is_not_retried(fake_eutils: FakeEutils) -> None:
    fake_eutils.fail_next(1, status=400, retry_after=None)

    async with _client(fake_eutils) as client:
        with pytest.raises(EutilsError, match="HTTP 400") as caught:
            await client.esearch("cancer")

    assert caught.value.status == 400
    assert len(fake_eutils.requests) == 1


async def test_a_server_that_does_not_answer_is_an_eutils_error() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    client = EutilsClient(
        f"http://127.0.0.1:{port}/", max_retries=1, backoff=0.01, requests_per_second=100
    )

    async with client:
        with pytest.raises(EutilsError, match="no answer") as caught:
            await client.esearch("cancer")

    assert caught.value.status is None
