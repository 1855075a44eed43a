"""Where attachments' bytes live: one interface, a folder or the database.

Keys are attachment ids (32 hex characters) that the server made, never a name a client
sent, so no key can reach outside the storage. Bytes go in and come out in pieces: a
file is never held whole in memory.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Protocol

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..store.tables import AttachmentChunk
from ..store.writer import writing

__all__ = ["CHUNK_BYTES", "AttachmentStorage", "DatabaseStorage", "FileStorage"]

CHUNK_BYTES = 256 * 1024
"""The size of the pieces bytes are copied, stored (database) and served in."""
_KEY = re.compile(r"[0-9a-f]{32}")


def _checked(key: str) -> str:
    # Ids are made by the server; anything else is a bug, never a path to follow.
    if not _KEY.fullmatch(key):
        raise ValueError(f"not an attachment key: {key[:40]!r}")
    return key


class AttachmentStorage(Protocol):
    """Bytes by attachment id: put (from a file, in pieces), read (in pieces), delete."""

    async def put(self, key: str, source: IO[bytes]) -> None:
        """Store `source`'s bytes (read from its start) under `key`."""

    def read(self, key: str) -> AsyncIterator[bytes]:
        """The bytes under `key`, in pieces."""

    async def delete(self, keys: list[str]) -> None:
        """Forget the bytes of `keys` (missing ones are fine)."""


class FileStorage:
    """Attachments as files in a folder (`PAGECHAT_ATTACHMENTS_DIR`): one host's default."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, key: str) -> Path:
        key = _checked(key)
        return self.folder / key[:2] / key

    async def put(self, key: str, source: IO[bytes]) -> None:
        """Copy `source` into a temporary file beside the target, then rename it in place."""
        await asyncio.to_thread(self._put, key, source)

    def _put(self, key: str, source: IO[bytes]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        source.seek(0)
        with partial.open("wb") as target:
            while chunk := source.read(CHUNK_BYTES):
                target.write(chunk)
        os.replace(partial, path)

    async def read(self, key: str) -> AsyncIterator[bytes]:
        """The file's bytes, a piece at a time, each read in a worker thread."""
        path = self._path(key)
        handle = await asyncio.to_thread(path.open, "rb")
        try:
            while chunk := await asyncio.to_thread(handle.read, CHUNK_BYTES):
                yield chunk
        finally:
            handle.close()

    async def delete(self, keys: list[str]) -> None:
        """Remove the files of `keys`."""
        for key in keys:
            await asyncio.to_thread(self._path(key).unlink, missing_ok=True)


class DatabaseStorage:
    """Attachments in the database (`attachment_chunks`), for several hosts that share no
    folder: each piece a row, so neither side holds a file whole."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def put(self, key: str, source: IO[bytes]) -> None:
        """Write `source` as rows of at most CHUNK_BYTES, in one transaction (on SQLite,
        under the engine's write lock: other writers queue instead of failing "database
        is locked" while a big file is written)."""
        key = _checked(key)
        source.seek(0)
        async with writing(self.sessions) as session:
            seq = 0
            while chunk := source.read(CHUNK_BYTES):
                session.add(AttachmentChunk(attachment_id=key, seq=seq, data=chunk))
                await session.flush()
                session.expunge_all()
                seq += 1

    async def read(self, key: str) -> AsyncIterator[bytes]:
        """The rows' bytes in order, one row read at a time."""
        key = _checked(key)
        seq = 0
        while True:
            async with self.sessions() as session:
                data = await session.scalar(
                    select(AttachmentChunk.data).where(
                        AttachmentChunk.attachment_id == key, AttachmentChunk.seq == seq
                    )
                )
            if data is None:
                return
            yield data
            seq += 1

    async def delete(self, keys: list[str]) -> None:
        """Delete the rows of `keys`."""
        if not keys:
            return
        checked = [_checked(key) for key in keys]
        async with writing(self.sessions) as session:
            await session.execute(
                delete(AttachmentChunk).where(AttachmentChunk.attachment_id.in_(checked))
            )
