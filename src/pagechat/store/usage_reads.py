"""`ChatStore`'s usage report, on a session of its own (store/usage.py has the query)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from .core import StoreCore
from .usage import GROUPINGS, Grouping, UsageRow, usage_report

__all__ = ["UsageReads"]


class UsageReads(StoreCore):
    """Token sums for admins: `usage`."""

    async def usage(
        self,
        *,
        by: Sequence[Grouping] = GROUPINGS,
        since: date | None = None,
        until: date | None = None,
    ) -> list[UsageRow]:
        """Token sums by user, model and/or day; see `store.usage.usage_report`."""
        async with self.sessions() as session:
            return await usage_report(session=session, by=by, since=since, until=until)
