"""Research streams: keyword-only functions on an `AsyncSession`, scoped to one user.

A stream that is not the user's is not found: `get_stream` answers None for it
exactly as for an id that does not exist. The functions flush but never commit.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.store import utcnow

from .schemas import (
    PresentationConfig,
    RetrievalConfig,
    SemanticSpace,
    StreamCreate,
    StreamPublic,
    StreamUpdate,
)
from .tables import Report, ResearchStream

__all__ = [
    "create_stream",
    "delete_stream",
    "get_stream",
    "list_streams",
    "stream_public",
    "update_stream",
]


async def create_stream(
    *, session: AsyncSession, user_id: str, stream_in: StreamCreate
) -> ResearchStream:
    now = utcnow()
    stream = ResearchStream(
        user_id=user_id,
        name=stream_in.name,
        purpose=stream_in.purpose,
        semantic_space=stream_in.semantic_space.model_dump(),
        retrieval_config=stream_in.retrieval_config.model_dump(),
        presentation_config=stream_in.presentation_config.model_dump(),
        created_at=now,
        updated_at=now,
    )
    session.add(stream)
    await session.flush()
    return stream


async def get_stream(
    *, session: AsyncSession, user_id: str, stream_id: int
) -> ResearchStream | None:
    result = await session.execute(
        select(ResearchStream).where(
            ResearchStream.id == stream_id, ResearchStream.user_id == user_id
        )
    )
    return result.scalar_one_or_none()


async def _report_stats(
    session: AsyncSession, stream_ids: list[int]
) -> dict[int, tuple[int, date | None]]:
    if not stream_ids:
        return {}
    result = await session.execute(
        select(Report.stream_id, func.count(), func.max(Report.report_date))
        .where(Report.stream_id.in_(stream_ids))
        .group_by(Report.stream_id)
    )
    return {stream_id: (count, latest) for stream_id, count, latest in result}


def _public(stream: ResearchStream, count: int, latest: date | None) -> StreamPublic:
    return StreamPublic(
        id=stream.id,
        name=stream.name,
        purpose=stream.purpose,
        semantic_space=SemanticSpace.model_validate(stream.semantic_space),
        retrieval_config=RetrievalConfig.model_validate(stream.retrieval_config),
        presentation_config=PresentationConfig.model_validate(stream.presentation_config),
        created_at=stream.created_at,
        updated_at=stream.updated_at,
        report_count=count,
        latest_report_date=latest,
    )


async def stream_public(*, session: AsyncSession, stream: ResearchStream) -> StreamPublic:
    """The stream with its report count and latest report date."""
    count, latest = (await _report_stats(session, [stream.id])).get(stream.id, (0, None))
    return _public(stream, count, latest)


async def list_streams(*, session: AsyncSession, user_id: str) -> list[StreamPublic]:
    """The user's streams, oldest first, each with its report count and latest report date."""
    result = await session.execute(
        select(ResearchStream).where(ResearchStream.user_id == user_id).order_by(ResearchStream.id)
    )
    streams = list(result.scalars())
    stats = await _report_stats(session, [s.id for s in streams])
    return [_public(s, *stats.get(s.id, (0, None))) for s in streams]


async def update_stream(
    *, session: AsyncSession, stream: ResearchStream, stream_in: StreamUpdate
) -> ResearchStream:
    """Apply the fields `stream_in` sets; a layer that is set replaces the stored one."""
    changes = stream_in.model_dump(exclude_unset=True)
    for field in ("name", "purpose"):
        if changes.get(field) is not None:
            setattr(stream, field, changes[field])
    if stream_in.semantic_space is not None:
        stream.semantic_space = stream_in.semantic_space.model_dump()
    if stream_in.retrieval_config is not None:
        stream.retrieval_config = stream_in.retrieval_config.model_dump()
    if stream_in.presentation_config is not None:
        stream.presentation_config = stream_in.presentation_config.model_dump()
    stream.updated_at = utcnow()
    await session.flush()
    return stream


async def delete_stream(*, session: AsyncSession, stream: ResearchStream) -> None:
    """Delete the stream; its reports and their entries go with it (ON DELETE CASCADE)."""
    await session.delete(stream)
    await session.flush()
