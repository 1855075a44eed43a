"""Files that come inside a protocol's message (AG-UI media parts, the AI SDK's file parts)
made into the user's attachments, as `POST /api/attachments` makes them.

A file comes as base64 bytes (a `data:` URL, or AG-UI's data source) or as the URL of
one of the user's own attachments (`/api/attachments/{id}`). Bytes are stored by
`Attachments.add`, the upload route's own checks (sniffing, the quotas); the size is
checked from the base64 length before anything is decoded, and the decoding runs off
the event loop. No other URL is fetched: a file somewhere else is refused (422).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import re
import tempfile
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import IO
from urllib.parse import urlsplit

from ..identity import Principal
from .service import (
    AttachmentInUse,
    AttachmentNotFound,
    AttachmentQuota,
    Attachments,
    TooManyAttachments,
)
from .sniff import Refused
from .upload import Upload, clean_name

__all__ = [
    "ATTACHMENT_URL",
    "InlineFile",
    "InlineRefused",
    "attachment_url",
    "inline_files",
    "store_inline",
]

ATTACHMENT_URL = "/api/attachments/"
"""Where an attachment is read (`GET /api/attachments/{id}`): the one URL form accepted."""

_SPOOL_BYTES = 1024 * 1024
_DATA_URL = re.compile(r"^data:(?P<type>[^;,]*)(?P<params>(?:;[^;,]*)*),", re.IGNORECASE)
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True, kw_only=True)
class InlineFile:
    """A file a message part carries: base64 `data`, or a `url` (a `data:` URL or one
    of ours); `name` as the client gave it."""

    data: str | None = None
    url: str | None = None
    name: str = "file"


class InlineRefused(Exception):
    """A file of the message is refused: `status` (413, 415, 422, 429) and `detail`."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def attachment_url(attachment_id: str) -> str:
    """The URL a stored attachment is read at, as protocols' messages name it."""
    return f"{ATTACHMENT_URL}{attachment_id}"


async def store_inline(
    *, attachments: Attachments | None, user: Principal, files: Sequence[InlineFile], host: str
) -> list[str]:
    """The attachment ids of `files`, in order: each URL of ours checked as the user's
    (AttachmentNotFound otherwise), then the inline bytes stored. `host` is the request's,
    for an absolute URL of ours. InlineRefused or TooManyAttachments before anything is
    stored when a file cannot be taken."""
    if not files:
        return []
    if attachments is None:
        raise TooManyAttachments(0)
    limit = attachments.quotas.for_user(user).attachments_per_message
    if len(files) > limit:
        raise TooManyAttachments(limit)
    sources = [_source(file, host=host) for file in files]
    for kind, value in sources:
        if kind == "id":
            await attachments.get(user, value)
    ids: list[str] = []
    try:
        for file, (kind, value) in zip(files, sources, strict=True):
            if kind == "id":
                ids.append(value)
            else:
                ids.append(await _store(attachments, user, data=value, name=file.name))
    except BaseException:
        await _discard(attachments, user, ids, sources)
        raise
    return ids


@contextlib.asynccontextmanager
async def inline_files(
    *, attachments: Attachments | None, user: Principal, files: Sequence[InlineFile], host: str
) -> AsyncIterator[list[str]]:
    """`store_inline`'s ids, for the message that sends them; the files stored here are
    deleted again when the body raises (the message was refused: nothing is left behind)."""
    ids = await store_inline(attachments=attachments, user=user, files=files, host=host)
    try:
        yield ids
    except BaseException:
        if attachments is not None:
            sources = [_source(file, host=host) for file in files]
            await _discard(attachments, user, ids, sources)
        raise


async def _discard(
    attachments: Attachments, user: Principal, ids: list[str], sources: list[tuple[str, str]]
) -> None:
    """Delete the attachments stored from bytes (not those named by URL), if still unsent."""
    for attachment_id, (kind, _) in zip(ids, sources, strict=False):
        if kind == "data":
            with contextlib.suppress(AttachmentNotFound, AttachmentInUse):
                await attachments.delete(user, attachment_id)


def _source(file: InlineFile, *, host: str) -> tuple[str, str]:
    """("data", base64) or ("id", an attachment id) for one file; 422 otherwise."""
    if file.data is not None:
        return "data", file.data
    url = (file.url or "").strip()
    match = _DATA_URL.match(url[:300])
    if match is not None:
        if "base64" not in match.group("params").lower().split(";"):
            raise InlineRefused(422, "A data: URL must carry its bytes as base64.")
        return "data", url[match.end() :]
    parts = urlsplit(url)
    ours = parts.scheme in ("", "http", "https") and parts.netloc in ("", host)
    if ours and parts.path.startswith(ATTACHMENT_URL) and not parts.query:
        attachment_id = parts.path[len(ATTACHMENT_URL) :]
        if _ID.match(attachment_id):
            return "id", attachment_id
    raise InlineRefused(
        422,
        "A file must come as a data: URL (base64) or as one of your attachments "
        f"({ATTACHMENT_URL}{{id}}); pagechat fetches nothing from other addresses.",
    )


async def _store(attachments: Attachments, user: Principal, *, data: str, name: str) -> str:
    """Decode base64 `data` off the event loop and store it through `Attachments.add`."""
    limit = attachments.file_limit(user)
    # Checked on the text, before decoding: 4 characters of base64 are 3 bytes.
    if (len(data) - len(data) % 4) // 4 * 3 - (len(data) - len(data.rstrip("="))) > limit:
        raise InlineRefused(413, f"This file is larger than {_size(limit)}: send a smaller one.")
    file, size = await asyncio.to_thread(_decode, data)
    try:
        info = await attachments.add(user, Upload(name=clean_name(name), file=file, size=size))
    except Refused as error:
        raise InlineRefused(415, error.detail) from None
    except AttachmentQuota as error:
        raise InlineRefused(429, error.detail) from None
    finally:
        file.close()
    return info.id


def _decode(data: str) -> tuple[IO[bytes], int]:
    """The bytes of base64 `data` in a spooled file (memory up to 1 MB, then disk)."""
    file: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)  # noqa: SIM115
    try:
        raw = base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        file.close()
        raise InlineRefused(422, "A file's bytes are not valid base64.") from None
    file.write(raw)
    file.seek(0)
    return file, len(raw)


def _size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):,.0f} MB"
    return f"{max(1, size // 1024):,} kB"
