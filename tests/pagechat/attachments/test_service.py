"""Attachments' retention: files older than the period are swept out, bytes and rows."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.attachments import AttachmentNotFound, Attachments, FileStorage, Upload
from tests.conftest import Account


def _files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


async def test_files_past_their_retention_are_swept_out(
    sessions: async_sessionmaker[AsyncSession], alice: Account, tmp_path: Path
) -> None:
    attachments = Attachments(
        sessions=sessions, storage=FileStorage(tmp_path / "files"), retention_days=30
    )
    made = await attachments.add(
        alice.user, Upload(name="a.txt", file=io.BytesIO(b"old news"), size=8)
    )

    early = await attachments.sweep(now=datetime.now(UTC) + timedelta(days=29))
    late = await attachments.sweep(now=datetime.now(UTC) + timedelta(days=31))

    assert (early, late) == (0, 1)
    assert _files(tmp_path / "files") == []
    try:
        await attachments.get(alice.user, made.id)
    except AttachmentNotFound:
        pass
    else:
        raise AssertionError("a swept file is still there")
