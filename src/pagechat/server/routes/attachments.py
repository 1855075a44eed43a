"""Attachments: upload (streamed, checked), download (the owner's only, as a download),
and delete before sending. Every refusal is `{"detail": ...}`, a sentence the tray shows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Path, Request, status
from fastapi.responses import JSONResponse, Response, StreamingResponse

from ...attachments import (
    AttachmentInfo,
    AttachmentInUse,
    AttachmentNotFound,
    AttachmentQuota,
    Attachments,
    BadUpload,
    Refused,
    TooLarge,
    receive_file,
)
from ..deps import CurrentUser
from ..headers import CONTENT_SECURITY_POLICY

__all__ = ["UPLOAD_PATH", "content_disposition", "router"]

UPLOAD_PATH = "/api/attachments"
"""The upload's path: its body is bounded by the route (the file limit), not by the
app's general body limit."""

router = APIRouter(prefix=UPLOAD_PATH, tags=["attachments"])

AttachmentId = Annotated[str, Path(min_length=1, max_length=64)]


async def _attachments(request: Request) -> Attachments:
    attachments: Attachments | None = getattr(request.app.state, "attachments", None)
    if attachments is None:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "This app takes no attachments")
    return attachments


AttachmentsDep = Annotated[Attachments, Depends(_attachments)]


def content_disposition(name: str) -> str:
    """`attachment` with an ASCII fallback name and the UTF-8 one (RFC 6266 / 5987)."""
    ascii_name = name.encode("ascii", "replace").decode().replace("?", "_")
    ascii_name = ascii_name.replace('"', "_").replace("\\", "_")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"


def _mb(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):,.0f} MB"
    return f"{max(1, size // 1024):,} kB"


@router.post("", status_code=status.HTTP_201_CREATED, response_model=AttachmentInfo)
async def upload(request: Request, user: CurrentUser, attachments: AttachmentsDep) -> Response:
    """Store one file (multipart field `file`), streamed: 413 past the role's file size,
    429 over the day's or the stored bytes, 415 for a type not accepted."""
    limit = attachments.file_limit(user)
    try:
        received = await receive_file(
            request.stream(), content_type=request.headers.get("content-type", ""), limit=limit
        )
    except TooLarge:
        return _refuse(413, f"This file is larger than {_mb(limit)}: send a smaller one.")
    except BadUpload as error:
        return _refuse(422, str(error))
    try:
        info = await attachments.add(user, received)
    except Refused as error:
        return _refuse(415, error.detail)
    except AttachmentQuota as error:
        return _refuse(429, error.detail)
    finally:
        received.file.close()
    return JSONResponse(info.model_dump(), status_code=status.HTTP_201_CREATED)


def _refuse(code: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=code)


@router.get("/{attachment_id}")
async def download(
    attachment_id: AttachmentId, user: CurrentUser, attachments: AttachmentsDep
) -> StreamingResponse:
    """The owner's file as a download, of the type sniffed when it came; 404 otherwise."""
    try:
        info, chunks = await attachments.read(user, attachment_id)
    except AttachmentNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Attachment not found") from None

    async def body() -> AsyncIterator[bytes]:
        async for chunk in chunks:
            yield chunk

    return StreamingResponse(
        body(),
        media_type=info.media_type,
        headers={
            "Content-Disposition": content_disposition(info.name),
            "Content-Length": str(info.size),
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        },
    )


@router.delete("/{attachment_id}", status_code=status.HTTP_204_NO_CONTENT)
async def remove(
    attachment_id: AttachmentId, user: CurrentUser, attachments: AttachmentsDep
) -> Response:
    """Delete a file not yet sent (removed before sending); 409 once a message carries it."""
    try:
        await attachments.delete(user, attachment_id)
    except AttachmentNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Attachment not found") from None
    except AttachmentInUse:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "This file is part of a sent message: delete the conversation to delete it.",
        ) from None
    return Response(status_code=status.HTTP_204_NO_CONTENT)
