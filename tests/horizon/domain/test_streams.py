"""Research streams: what a user creates is theirs alone, and reads back as written."""

from __future__ import annotations

from datetime import date

from sqlalchemy.ext.asyncio import AsyncSession

from horizon.domain import (
    Category,
    Entity,
    PresentationConfig,
    RetrievalConfig,
    RetrievalQuery,
    SemanticSpace,
    StreamCreate,
    StreamUpdate,
    Topic,
    create_report,
    create_stream,
    delete_stream,
    get_stream,
    list_reports,
    list_streams,
    stream_public,
    update_stream,
)
from tests.conftest import Account


def _stream_in(name: str = "Cancer immunotherapy") -> StreamCreate:
    return StreamCreate(
        name=name,
        purpose="Checkpoint inhibitors in solid tumours.",
        semantic_space=SemanticSpace(
            topics=[Topic(name="PD-1 blockade", description="Anti-PD-1 antibodies.")],
            entities=[Entity(name="Melanoma", type="disease")],
            inclusion_notes="Human studies.",
            exclusion_notes="Blood cancers.",
        ),
        retrieval_config=RetrievalConfig(
            queries=[RetrievalQuery(query='"PD-1"[Title/Abstract]', rationale="The target.")]
        ),
        presentation_config=PresentationConfig(categories=[Category(name="Trials")]),
    )


async def test_a_created_stream_reads_back_with_all_three_layers(
    session: AsyncSession, alice: Account
) -> None:
    stream = await create_stream(session=session, user_id=alice.user.id, stream_in=_stream_in())
    await session.commit()

    found = await get_stream(session=session, user_id=alice.user.id, stream_id=stream.id)
    assert found is not None
    public = await stream_public(session=session, stream=found)

    assert public.name == "Cancer immunotherapy"
    assert public.semantic_space.topics[0].name == "PD-1 blockade"
    assert public.semantic_space.entities == [Entity(name="Melanoma", type="disease")]
    assert public.semantic_space.exclusion_notes == "Blood cancers."
    assert public.retrieval_config.queries[0].source == "pubmed"
    assert [c.name for c in public.presentation_config.categories] == ["Trials"]
    assert (public.report_count, public.latest_report_date) == (0, None)


async def test_another_users_stream_is_not_found(
    session: AsyncSession, alice: Account, bob: Account
) -> None:
    stream = await create_stream(session=session, user_id=alice.user.id, stream_in=_stream_in())
    await session.commit()

    assert await get_stream(session=session, user_id=bob.user.id, stream_id=stream.id) is None
    assert await list_streams(session=session, user_id=bob.user.id) == []
    assert await list_reports(session=session, user_id=bob.user.id, stream_id=stream.id) is None


async def test_each_user_lists_only_their_own_streams_oldest_first(
    session: AsyncSession, alice: Account, bob: Account
) -> None:
    for name in ("First", "Second"):
        await create_stream(session=session, user_id=alice.user.id, stream_in=_stream_in(name))
    await create_stream(session=session, user_id=bob.user.id, stream_in=_stream_in("Bob's"))
    await session.commit()

    alices = await list_streams(session=session, user_id=alice.user.id)
    bobs = await list_streams(session=session, user_id=bob.user.id)

    assert [s.name for s in alices] == ["First", "Second"]
    assert [s.name for s in bobs] == ["Bob's"]


async def test_an_update_changes_only_what_it_sets(session: AsyncSession, alice: Account) -> None:
    stream = await create_stream(session=session, user_id=alice.user.id, stream_in=_stream_in())
    before = stream.updated_at

    await update_stream(
        session=session,
        stream=stream,
        stream_in=StreamUpdate(
            purpose="Any immunotherapy.",
            presentation_config=PresentationConfig(categories=[Category(name="Reviews")]),
        ),
    )
    await session.commit()
    public = await stream_public(session=session, stream=stream)

    assert public.name == "Cancer immunotherapy"
    assert public.purpose == "Any immunotherapy."
    assert public.semantic_space.topics[0].name == "PD-1 blockade"
    assert [c.name for c in public.presentation_config.categories] == ["Reviews"]
    assert public.updated_at >= before


async def test_report_counts_and_latest_date_are_listed(
    session: AsyncSession, alice: Account
) -> None:
    stream = await create_stream(session=session, user_id=alice.user.id, stream_in=_stream_in())
    for day in (date(2025, 1, 6), date(2025, 1, 13)):
        await create_report(
            session=session, stream=stream, report_date=day, key_highlights=[], thematic_summary=""
        )
    await session.commit()

    [listed] = await list_streams(session=session, user_id=alice.user.id)

    assert (listed.report_count, listed.latest_report_date) == (2, date(2025, 1, 13))


async def test_deleting_a_stream_deletes_its_reports(session: AsyncSession, alice: Account) -> None:
    stream = await create_stream(session=session, user_id=alice.user.id, stream_in=_stream_in())
    await create_report(
        session=session,
        stream=stream,
        report_date=date(2025, 1, 6),
        key_highlights=["x"],
        thematic_summary="y",
    )
    await session.commit()
    stream_id = stream.id

    await delete_stream(session=session, stream=stream)
    await session.commit()

    assert await get_stream(session=session, user_id=alice.user.id, stream_id=stream_id) is None
    assert await list_reports(session=session, user_id=alice.user.id, stream_id=stream_id) is None
    assert await list_streams(session=session, user_id=alice.user.id) == []
