"""`/api/horizon/streams`: the user's research streams (list, create, read, update, delete)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, status

from pagechat.server import CurrentUser, SessionDep

from ..domain import (
    ResearchStream,
    StreamCreate,
    StreamPublic,
    StreamsPublic,
    StreamUpdate,
    create_stream,
    delete_stream,
    get_stream,
    list_streams,
    stream_public,
    update_stream,
)
from .params import DbId

__all__ = ["router"]

router = APIRouter(prefix="/api/horizon", tags=["horizon: streams"])

StreamId = DbId
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such stream of yours"}}


async def _owned(session: SessionDep, user_id: str, stream_id: int) -> ResearchStream:
    stream = await get_stream(session=session, user_id=user_id, stream_id=stream_id)
    if stream is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Stream not found")
    return stream


@router.get("/streams")
async def read_streams(session: SessionDep, user: CurrentUser) -> StreamsPublic:
    streams = await list_streams(session=session, user_id=user.id)
    return StreamsPublic(data=streams, count=len(streams))


@router.post("/streams", status_code=status.HTTP_201_CREATED)
async def create_new_stream(
    stream_in: StreamCreate, session: SessionDep, user: CurrentUser
) -> StreamPublic:
    stream = await create_stream(session=session, user_id=user.id, stream_in=stream_in)
    public = await stream_public(session=session, stream=stream)
    await session.commit()
    return public


@router.get("/streams/{stream_id}", responses=_NOT_FOUND)
async def read_stream(stream_id: StreamId, session: SessionDep, user: CurrentUser) -> StreamPublic:
    stream = await _owned(session, user.id, stream_id)
    return await stream_public(session=session, stream=stream)


@router.patch("/streams/{stream_id}", responses=_NOT_FOUND)
async def update_existing_stream(
    stream_id: StreamId, stream_in: StreamUpdate, session: SessionDep, user: CurrentUser
) -> StreamPublic:
    stream = await _owned(session, user.id, stream_id)
    await update_stream(session=session, stream=stream, stream_in=stream_in)
    public = await stream_public(session=session, stream=stream)
    await session.commit()
    return public


@router.delete("/streams/{stream_id}", status_code=status.HTTP_204_NO_CONTENT, responses=_NOT_FOUND)
async def delete_existing_stream(
    stream_id: StreamId, session: SessionDep, user: CurrentUser
) -> None:
    stream = await _owned(session, user.id, stream_id)
    await delete_stream(session=session, stream=stream)
    await session.commit()
