"""The importer: every PMID once, the last version wins, NLM's deletions are applied."""

from __future__ import annotations

from collections import Counter
from datetime import date

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from horizon.domain import (
    Article,
    ImportCounts,
    NewReportArticle,
    StreamCreate,
    count_articles,
    create_report,
    create_stream,
    get_article,
    get_articles,
    import_articles,
)
from horizon.pubmed import ArticleRecord, DeletedCitation, PubmedItem, synthetic_corpus
from tests.conftest import Account


def _record(pmid: str, title: str) -> ArticleRecord:
    return ArticleRecord(
        pmid=pmid,
        title=title,
        abstract=f"About {title}.",
        authors=("Doe J",),
        journal="J Test",
        year=2024,
        doi=None,
        mesh_terms=("Humans",),
        source="test",
    )


async def _stored(session: AsyncSession) -> dict[str, Article]:
    return {a.pmid: a for a in (await session.execute(select(Article))).scalars()}


async def test_the_real_corpus_stores_each_unique_pmid_once(
    session: AsyncSession, corpus_articles: ImportCounts, corpus_items: list[PubmedItem]
) -> None:
    stored = await _stored(session)
    by_source = Counter(a.source.split("/")[0] for a in stored.values())

    unique = {i.pmid for i in corpus_items if isinstance(i, ArticleRecord)}
    assert await count_articles(session=session) == len(unique)
    assert set(stored) == unique
    assert by_source == {
        "medline16n0902.xml.gz": 604,
        "pmparser_sample": 403,
        "metapub_pmid_xml": 163,
    }
    assert corpus_articles == ImportCounts(
        records=1186, deletions=317, inserted=1170, updated=16, deleted=0, kept=0
    )


async def test_the_last_version_of_a_citation_wins(
    session: AsyncSession, corpus_items: list[PubmedItem], corpus_articles: ImportCounts
) -> None:
    last = {item.pmid: item for item in corpus_items if isinstance(item, ArticleRecord)}
    revised = Counter(i.pmid for i in corpus_items if isinstance(i, ArticleRecord))

    stored = await _stored(session)

    assert set(stored) == set(last)
    for pmid, record in last.items():
        article = stored[pmid]
        assert (article.title, article.abstract, article.doi) == (
            record.title,
            record.abstract,
            record.doi,
        ), pmid
        assert (tuple(article.authors), tuple(article.mesh_terms)) == (
            record.authors,
            record.mesh_terms,
        )
    assert sum(n - 1 for n in revised.values()) == corpus_articles.updated


async def test_importing_again_updates_and_adds_nothing(session: AsyncSession) -> None:
    records = synthetic_corpus(30)
    await import_articles(session=session, records=records)

    again = await import_articles(session=session, records=records)

    assert (again.inserted, again.updated) == (0, 30)
    assert await count_articles(session=session) == 30


async def test_batches_do_not_change_what_is_stored(session: AsyncSession) -> None:
    items = [_record("1", "First"), _record("2", "Second"), _record("1", "First, revised")]

    counts = await import_articles(session=session, records=items, batch_size=1)

    assert (counts.inserted, counts.updated) == (2, 1)
    first = await get_article(session=session, pmid="1")
    assert first is not None and first.title == "First, revised"


async def test_a_deletion_removes_the_article_and_a_later_version_brings_it_back(
    session: AsyncSession,
) -> None:
    await import_articles(
        session=session, records=[_record("10", "Kept"), _record("11", "Withdrawn")]
    )

    counts = await import_articles(
        session=session,
        records=[DeletedCitation("11", "update"), DeletedCitation("12", "update")],
    )

    assert (counts.deletions, counts.deleted) == (2, 1)
    assert [a.pmid for a in await get_articles(session=session, pmids=["10", "11"])] == ["10"]

    back = await import_articles(
        session=session, records=[DeletedCitation("10", "u"), _record("10", "Revised")]
    )

    assert (back.deleted, back.inserted) == (1, 1)
    article = await get_article(session=session, pmid="10")
    assert article is not None and article.title == "Revised"


async def test_a_deletion_keeps_an_article_a_report_lists(
    session: AsyncSession, alice: Account
) -> None:
    await import_articles(session=session, records=[_record("20", "In a report")])
    stream = await create_stream(
        session=session, user_id=alice.user.id, stream_in=StreamCreate(name="S")
    )
    [article] = await get_articles(session=session, pmids=["20"])
    await create_report(
        session=session,
        stream=stream,
        report_date=date(2025, 1, 6),
        key_highlights=[],
        thematic_summary="",
        articles=[NewReportArticle(article, 0.9, "", 1)],
    )

    counts = await import_articles(session=session, records=[DeletedCitation("20", "u")])

    assert (counts.deleted, counts.kept) == (0, 1)
    assert await get_article(session=session, pmid="20") is not None


async def test_pmids_are_found_whatever_their_spacing_or_case(session: AsyncSession) -> None:
    await import_articles(session=session, records=synthetic_corpus(2))

    assert await get_article(session=session, pmid=" syn000002 ") is not None
    assert await get_article(session=session, pmid="SYN999999") is None
