"""Full-text search of the article store: relevant records first, any input safe."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from horizon.domain import (
    ImportCounts,
    count_matching_articles,
    import_articles,
    parse_query,
    search_articles,
)
from horizon.pubmed import ArticleRecord, PubmedItem


def _record(pmid: str, title: str, abstract: str, year: int = 2020) -> ArticleRecord:
    return ArticleRecord(
        pmid=pmid,
        title=title,
        abstract=abstract,
        authors=(),
        journal="J",
        year=year,
        doi=None,
        mesh_terms=(),
        source="test",
    )


def test_a_query_is_read_into_words_and_phrases() -> None:
    terms = parse_query('CAR-T cells AND "base editing"[tiab] OR (the sickle) NOT x')

    assert [t.words for t in terms.terms] == [
        ("base", "editing"),
        ("car", "t"),
        ("cells",),
        ("sickle",),
        ("x",),
    ]
    assert [(t.text, t.quoted) for t in terms.terms[:2]] == [
        ("base editing", True),
        ("CAR-T", False),
    ]


def test_a_query_of_stop_words_and_tags_has_no_terms() -> None:
    assert not parse_query("the of AND [Title/Abstract] ()")


async def test_crispr_finds_the_crispr_records(
    session: AsyncSession, corpus_items: list[PubmedItem], corpus_articles: ImportCounts
) -> None:
    latest = {i.pmid: i for i in corpus_items if isinstance(i, ArticleRecord)}
    mentions = {
        pmid
        for pmid, record in latest.items()
        if "crispr" in f"{record.title} {record.abstract}".casefold()
    }

    found = await search_articles(session=session, query="CRISPR", limit=50)

    assert len(mentions) == 5
    assert {m.article.pmid for m in found} == mentions
    assert "CRISPR" in found[0].article.title
    assert await count_matching_articles(session=session, query="CRISPR") == 5


async def test_articles_with_every_word_come_before_those_with_some(
    session: AsyncSession, corpus_articles: ImportCounts
) -> None:
    found = await search_articles(session=session, query="heart failure", limit=120)

    flags = [m.all_terms for m in found]
    assert flags[0] and not flags[-1]
    assert flags == sorted(flags, reverse=True)
    for match in found[: flags.count(True)]:
        text = f"{match.article.title} {match.article.abstract}".casefold()
        assert "heart" in text and "failure" in text
    assert await count_matching_articles(session=session, query="heart failure") == len(found)


async def test_a_word_in_the_title_outranks_the_same_word_in_the_abstract(
    session: AsyncSession,
) -> None:
    await import_articles(
        session=session,
        records=[
            _record("1", "Kidney outcomes", "We studied sirolimus in transplant patients."),
            _record("2", "Sirolimus in transplant patients", "We studied kidney outcomes."),
        ],
    )

    found = await search_articles(session=session, query="sirolimus", limit=5)

    assert [m.article.pmid for m in found] == ["2", "1"]
    assert found[0].score > found[1].score


async def test_stemming_finds_other_forms_of_a_word(session: AsyncSession) -> None:
    await import_articles(
        session=session, records=[_record("1", "Edited cells", "Editing of stem cells.")]
    )

    assert [m.article.pmid for m in await search_articles(session=session, query="cell")] == ["1"]


async def test_hyphenated_terms_are_searched_as_phrases(session: AsyncSession) -> None:
    await import_articles(
        session=session,
        records=[
            _record("1", "CAR-T therapy in lymphoma", "Engineered T cells."),
            _record("2", "A car accident", "T-shaped injuries."),
        ],
    )

    found = await search_articles(session=session, query="CAR-T", limit=5)

    assert [m.article.pmid for m in found] == ["1"]


@pytest.mark.parametrize(
    "query",
    [
        'unbalanced "quote',
        "NEAR(a b) OR * ^ : -",
        "title:cancer",
        "'; DROP TABLE articles; --",
        "(((",
        "a & b | !c <-> d",
    ],
)
async def test_any_query_text_is_safe(session: AsyncSession, query: str) -> None:
    await import_articles(session=session, records=[_record("1", "Cancer", "Drop table.")])

    await search_articles(session=session, query=query, limit=5)
    await count_matching_articles(session=session, query=query)
    assert len(await search_articles(session=session, query="cancer")) == 1


async def test_a_query_with_nothing_to_search_finds_nothing(session: AsyncSession) -> None:
    await import_articles(session=session, records=[_record("1", "The", "Of the.")])

    assert await search_articles(session=session, query="the of [tiab]") == []
    assert await count_matching_articles(session=session, query="the of") == 0
