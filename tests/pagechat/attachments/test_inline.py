"""Files inside a protocol's message stored as the user's attachments: the size read from
the base64 text to the byte, and only our own attachment URLs taken."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.attachments import (
    Attachments,
    FileStorage,
    InlineFile,
    InlineRefused,
    TooManyAttachments,
    attachment_url,
    store_inline,
)
from pagechat.quotas import QuotaPolicy, QuotaSettings
from tests.conftest import Account

LIMIT = 30
POLICY = QuotaPolicy(attachment_bytes=LIMIT, attachments_per_message=2)


@pytest.fixture
def attachments(sessions: async_sessionmaker[AsyncSession], tmp_path: Path) -> Attachments:
    return Attachments(
        sessions=sessions,
        storage=FileStorage(tmp_path / "files"),
        quotas=QuotaSettings(user=POLICY, admin=POLICY),
    )


def _text(size: int) -> InlineFile:
    return InlineFile(data=base64.b64encode(b"a" * size).decode(), name="../a.txt")


async def test_a_file_of_exactly_the_limit_is_stored_one_byte_more_is_413(
    attachments: Attachments, alice: Account
) -> None:
    (made,) = await store_inline(
        attachments=attachments, user=alice.user, files=[_text(LIMIT)], host="h"
    )
    with pytest.raises(InlineRefused) as refused:
        await store_inline(
            attachments=attachments, user=alice.user, files=[_text(LIMIT + 1)], host="h"
        )

    info = await attachments.get(alice.user, made)
    assert (info.name, info.size, info.media_type) == ("a.txt", LIMIT, "text/plain")
    assert refused.value.status == 413


async def test_our_url_relative_or_on_this_host_names_the_attachment_others_are_422(
    attachments: Attachments, alice: Account
) -> None:
    (made,) = await store_inline(
        attachments=attachments, user=alice.user, files=[_text(3)], host="h"
    )
    ours = [attachment_url(made), f"https://h{attachment_url(made)}"]
    others = [f"https://elsewhere{attachment_url(made)}", "file:///etc/passwd", "ftp://h/x", ""]

    named = await store_inline(
        attachments=attachments, user=alice.user, files=[InlineFile(url=u) for u in ours], host="h"
    )

    assert named == [made, made]
    for url in others:
        with pytest.raises(InlineRefused) as refused:
            await store_inline(
                attachments=attachments, user=alice.user, files=[InlineFile(url=url)], host="h"
            )
        assert refused.value.status == 422


async def test_more_files_than_the_role_allows_are_refused_before_any_is_stored(
    attachments: Attachments, alice: Account
) -> None:
    with pytest.raises(TooManyAttachments):
        await store_inline(attachments=attachments, user=alice.user, files=[_text(1)] * 3, host="h")
    with pytest.raises(TooManyAttachments):
        await store_inline(attachments=None, user=alice.user, files=[_text(1)], host="h")
