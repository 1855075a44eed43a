"""DatabaseStorage writes a big file in SQLite's one-writer-at-a-time discipline: other
writers (the store's, attachments' records) queue behind it instead of failing."""

from __future__ import annotations

import asyncio
import io
import uuid
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from pagechat.attachments import Attachments, DatabaseStorage, Upload
from pagechat.attachments.storage import CHUNK_BYTES
from pagechat.store.base import ChatStore
from tests.conftest import Account


def _no_waiting(dbapi_connection: Any, _record: Any) -> None:
    # A writer that meets another's lock fails at once ("database is locked") instead of
    # polling for 5 s: any write outside the discipline shows, on any machine.
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA busy_timeout=0")
    finally:
        cursor.close()


async def test_a_big_database_upload_never_locks_other_writers_out(
    engine: AsyncEngine, sessions: async_sessionmaker[AsyncSession], alice: Account
) -> None:
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _no_waiting)
        await engine.dispose()  # connections made from here on wait for no lock
    storage = DatabaseStorage(sessions)
    attachments = Attachments(sessions=sessions, storage=storage)
    store = ChatStore(sessions)
    big = io.BytesIO(b"x" * (CHUNK_BYTES * 24))

    async def small(n: int) -> None:
        await attachments.add(
            alice.user, Upload(name=f"n{n}.txt", file=io.BytesIO(b"note"), size=4)
        )
        await store.ensure_conversation(
            user=alice.user, conversation_id=uuid.uuid4().hex, title=f"c{n}"
        )

    key = uuid.uuid4().hex
    await asyncio.gather(storage.put(key, big), *(small(n) for n in range(12)))

    assert b"".join([chunk async for chunk in storage.read(key)]) == big.getvalue()
    assert (await store.list_conversations(user=alice.user)).total == 12
