from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.store.users import EmailTaken, create_user, get_user, get_user_by_email


async def test_emails_are_stored_lower_case_and_found_in_any_case(
    sessions: async_sessionmaker[AsyncSession], password_hash: str
) -> None:
    async with sessions.begin() as session:
        made = await create_user(
            session=session, email=" Ada@Example.COM ", password_hash=password_hash
        )

    async with sessions() as session:
        found = await get_user_by_email(session=session, email="ADA@example.com")
        by_id = await get_user(session=session, user_id=made.id)

    assert found is not None and by_id is not None
    assert found.email == by_id.email == "ada@example.com"
    assert not found.is_admin


async def test_one_email_cannot_hold_two_accounts(
    sessions: async_sessionmaker[AsyncSession], password_hash: str
) -> None:
    async with sessions.begin() as session:
        await create_user(session=session, email="ada@example.com", password_hash=password_hash)

    async with sessions.begin() as session:
        with pytest.raises(EmailTaken):
            await create_user(session=session, email="ADA@example.com", password_hash=password_hash)
        # The transaction is still usable after the refusal.
        assert await get_user_by_email(session=session, email="ada@example.com") is not None
