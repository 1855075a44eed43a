"""Attachments: a user's uploaded files, checked, counted against quotas, stored, read
back by their owner only, bound to the conversation of the first message that sends
them, and deleted with it or after the retention period.

The metadata is the `attachments` table; the bytes are in an `AttachmentStorage`.
Another user's attachment is `AttachmentNotFound`, exactly as a missing one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta

from pydantic import BaseModel
from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..identity import Principal
from ..quotas import QuotaSettings
from ..store.tables import Attachment, AttachmentUpload
from ..store.writer import writing
from .sniff import sniff
from .storage import AttachmentStorage
from .upload import Upload

logger = logging.getLogger(__name__)

__all__ = [
    "AttachmentInUse",
    "AttachmentInfo",
    "AttachmentNotFound",
    "AttachmentQuota",
    "Attachments",
    "TooManyAttachments",
]


class AttachmentInfo(BaseModel):
    """An attachment as its owner and the wire see it."""

    id: str
    name: str
    media_type: str
    size: int


class AttachmentNotFound(Exception):
    """No such attachment for this user (another user's included): 404."""


class AttachmentInUse(Exception):
    """The attachment is part of a sent message and cannot be deleted alone: 409."""


class AttachmentQuota(Exception):
    """Over the user's daily or stored bytes: 429 with `detail`."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class TooManyAttachments(Exception):
    """More files on one message than the user's role allows: 422."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"A message can carry at most {limit} files.")
        self.limit = limit


def _info(row: Attachment) -> AttachmentInfo:
    return AttachmentInfo(id=row.id, name=row.name, media_type=row.media_type, size=row.size)


class Attachments:
    """Uploads, reads and deletes attachments for their owners."""

    def __init__(
        self,
        *,
        sessions: async_sessionmaker[AsyncSession],
        storage: AttachmentStorage,
        quotas: QuotaSettings | None = None,
        retention_days: int | None = None,
    ) -> None:
        self.sessions = sessions
        self.storage = storage
        self.quotas = quotas or QuotaSettings()
        self.retention_days = retention_days

    def file_limit(self, user: Principal) -> int:
        """The largest file `user` may upload, in bytes."""
        return self.quotas.for_user(user).attachment_bytes

    async def add(self, user: Principal, upload: Upload) -> AttachmentInfo:
        """Check, count and store `upload`; Refused (415) or AttachmentQuota (429).

        The quota is checked first (nothing is stored for a user already over it), then
        again in the transaction that records the file, with the user's uploads one at a
        time: two uploads at once cannot both fit in the same last megabytes."""
        async with self.sessions() as session:
            await self._check_quota(session, user, upload.size)
        media_type = await asyncio.to_thread(sniff, upload.file, name=upload.name)
        row = Attachment(
            id=uuid.uuid4().hex,
            user_id=user.id,
            name=upload.name,
            media_type=media_type,
            size=upload.size,
        )
        await self.storage.put(row.id, upload.file)
        try:
            async with writing(self.sessions) as session:
                await _one_upload_at_a_time(session, user.id)
                await self._check_quota(session, user, upload.size)
                session.add(row)
                await _count_upload(session, user.id, upload.size)
        except BaseException:
            await self.storage.delete([row.id])
            raise
        return _info(row)

    async def _check_quota(self, session: AsyncSession, user: Principal, size: int) -> None:
        policy = self.quotas.for_user(user)
        stored = await session.scalar(
            select(func.coalesce(func.sum(Attachment.size), 0)).where(Attachment.user_id == user.id)
        )
        today = await session.scalar(
            select(AttachmentUpload.bytes).where(
                AttachmentUpload.user_id == user.id, AttachmentUpload.day == _today()
            )
        )
        if int(today or 0) + size > policy.attachment_bytes_per_day:
            share = _mb(policy.attachment_bytes_per_day)
            raise AttachmentQuota(
                f"You have uploaded today's share of files ({share}). It renews at midnight UTC."
            )
        if int(stored or 0) + size > policy.attachment_bytes_stored:
            raise AttachmentQuota(
                f"Your files take all the space you have ({_mb(policy.attachment_bytes_stored)}). "
                "Delete conversations with files to make room."
            )

    async def get(self, user: Principal, attachment_id: str) -> AttachmentInfo:
        """The owner's attachment, or AttachmentNotFound."""
        async with self.sessions() as session:
            row = await session.get(Attachment, attachment_id[:64])
        if row is None or row.user_id != user.id:
            raise AttachmentNotFound(attachment_id)
        return _info(row)

    async def read(
        self, user: Principal, attachment_id: str
    ) -> tuple[AttachmentInfo, AsyncIterator[bytes]]:
        """The owner's attachment and its bytes, in pieces; AttachmentNotFound otherwise."""
        info = await self.get(user, attachment_id)
        return info, self.storage.read(info.id)

    async def delete(self, user: Principal, attachment_id: str) -> None:
        """Delete an attachment no sent message carries (AttachmentInUse otherwise)."""
        async with writing(self.sessions) as session:
            row = await session.get(Attachment, attachment_id[:64])
            if row is None or row.user_id != user.id:
                raise AttachmentNotFound(attachment_id)
            if row.conversation_id is not None:
                raise AttachmentInUse(attachment_id)
            await session.delete(row)
        await self.storage.delete([attachment_id])

    async def bind(
        self, user: Principal, ids: Sequence[str], conversation_id: str | None
    ) -> list[AttachmentInfo]:
        """The attachments a message of `conversation_id` carries, in order: each the
        user's, unbound or already this conversation's (AttachmentNotFound otherwise),
        at most the role's files per message (TooManyAttachments)."""
        limit = self.quotas.for_user(user).attachments_per_message
        unique = list(dict.fromkeys(ids))
        if len(unique) > limit:
            raise TooManyAttachments(limit)
        if not unique:
            return []
        async with self.sessions() as session:
            rows = {
                row.id: row
                for row in await session.scalars(
                    select(Attachment).where(
                        Attachment.id.in_(unique), Attachment.user_id == user.id
                    )
                )
            }
        found = []
        for attachment_id in unique:
            row = rows.get(attachment_id)
            if row is None or row.conversation_id not in (None, conversation_id):
                raise AttachmentNotFound(attachment_id)
            found.append(_info(row))
        return found

    async def attach(self, ids: Sequence[str], conversation_id: str) -> None:
        """Bind unbound `ids` to the conversation whose message now carries them."""
        if not ids:
            return
        async with writing(self.sessions) as session:
            await session.execute(
                update(Attachment)
                .where(Attachment.id.in_(list(ids)), Attachment.conversation_id.is_(None))
                .values(conversation_id=conversation_id)
            )

    async def delete_conversation(self, conversation_id: str) -> None:
        """Delete the attachments of a deleted conversation, bytes first."""
        async with self.sessions() as session:
            ids = list(
                await session.scalars(
                    select(Attachment.id).where(Attachment.conversation_id == conversation_id)
                )
            )
        await self._forget(ids)

    async def sweep(self, *, now: datetime | None = None) -> int:
        """Delete attachments older than the retention period; how many. None kept forever."""
        if self.retention_days is None:
            return 0
        cutoff = (now or datetime.now(UTC)) - timedelta(days=self.retention_days)
        async with self.sessions() as session:
            ids = list(
                await session.scalars(select(Attachment.id).where(Attachment.created_at < cutoff))
            )
        await self._forget(ids)
        return len(ids)

    @contextlib.asynccontextmanager
    async def sweeping(self, *, every: float = 3600.0) -> AsyncIterator[None]:
        """While open, sweep out expired attachments now and every `every` seconds
        (nothing to do without a retention period)."""
        if self.retention_days is None:
            yield
            return
        task = asyncio.create_task(self._sweep_forever(every))
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _sweep_forever(self, every: float) -> None:
        while True:
            try:
                swept = await self.sweep()
                if swept:
                    logger.info("deleted %d attachments past their retention", swept)
            except Exception:
                logger.exception("attachment sweep failed")
            await asyncio.sleep(every)

    async def _forget(self, ids: list[str]) -> None:
        if not ids:
            return
        await self.storage.delete(ids)
        async with writing(self.sessions) as session:
            await session.execute(delete(Attachment).where(Attachment.id.in_(ids)))


async def _one_upload_at_a_time(session: AsyncSession, user_id: str) -> None:
    """Hold the user's upload lock until the transaction ends: on PostgreSQL an advisory
    lock; on SQLite the engine's write lock (store/writer.py) already makes every write
    transaction one at a time."""
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(
            select(func.pg_advisory_xact_lock(_UPLOAD_LOCK, func.hashtext(user_id)))
        )


_UPLOAD_LOCK = 0x61747463
"""The advisory locks' first key: "attc", so no other lock shares them."""


def _today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


async def _count_upload(session: AsyncSession, user_id: str, size: int) -> None:
    """Add `size` to the user's bytes of today, in the upload's transaction."""
    counted = await session.execute(
        update(AttachmentUpload)
        .where(AttachmentUpload.user_id == user_id, AttachmentUpload.day == _today())
        .values(bytes=AttachmentUpload.bytes + size)
    )
    if getattr(counted, "rowcount", 0) == 0:
        session.add(AttachmentUpload(user_id=user_id, day=_today(), bytes=size))


def _mb(size: int) -> str:
    """A size as people read it: 10 MB, 200 kB."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):,.0f} MB"
    return f"{max(1, size // 1024):,} kB"
