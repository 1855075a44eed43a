"""`ChatStore`'s usage: the admins' report, and the rows of conversation-title calls
(store/usage.py has the queries)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ..identity import Principal
from ..protocol import Usage
from .core import StoreCore
from .usage import DEFAULT_GROUPING, Grouping, UsageRow, record_title_usage, usage_report

__all__ = ["UsageReads"]


class UsageReads(StoreCore):
    """Token sums for admins (`usage`), and the title calls' tokens (`record_title_usage`)."""

    async def usage(
        self,
        *,
        by: Sequence[Grouping] = DEFAULT_GROUPING,
        since: date | None = None,
        until: date | None = None,
    ) -> list[UsageRow]:
        """Token sums by user, model, day and/or purpose; see `store.usage.usage_report`."""
        async with self.sessions() as session:
            return await usage_report(session=session, by=by, since=since, until=until)

    async def record_title_usage(self, *, user: Principal, model: str, usage: Usage) -> None:
        """Count one conversation-title call's tokens against `user` (chat/titles.py)."""
        async with self._writing(user) as session:
            await record_title_usage(session=session, user_id=user.id, model=model, usage=usage)
