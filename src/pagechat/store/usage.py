"""Token accounting: what each answer used, and the sums an admin reads.

An answer's row (`TurnUsage`) is written in the same transaction that stores the answer's
end (`turn_rows.finish_messages`), replaced when a paused answer ends again with its new
totals, and kept when the conversation is deleted. `usage_report` sums the rows by user,
model and UTC day, with the prompt-cache counts apart.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any, Literal, cast

from sqlalchemy import Select, Table, delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from .records import AssistantRecord
from .rows import CONVERSATIONS, MESSAGES
from .tables import TurnUsage, User, utcnow

__all__ = [
    "GROUPINGS",
    "Grouping",
    "UsageRow",
    "record_usage",
    "usage_csv",
    "usage_report",
]

USAGE = cast(Table, TurnUsage.__table__)
USERS = cast(Table, User.__table__)

Grouping = Literal["user", "model", "day"]
"""A column the report is grouped by."""
GROUPINGS: tuple[Grouping, ...] = ("user", "model", "day")


@dataclass(frozen=True, slots=True, kw_only=True)
class UsageRow:
    """The tokens of the answers sharing the grouped columns (the others are None)."""

    user: str | None = None
    """The user's email."""
    model: str | None = None
    day: str | None = None
    answers: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int


async def record_usage(
    *, session: AsyncSession | AsyncConnection, records: Mapping[str, AssistantRecord]
) -> None:
    """Write (or replace) the usage rows of answers that just ended, by message id; an
    answer whose conversation is already gone has no owner to count against."""
    used = {mid: r for mid, r in records.items() if r.usage is not None}
    if not used:
        return
    ids = list(used)
    found = await session.execute(
        select(MESSAGES.c.id, CONVERSATIONS.c.owner_id)
        .join(CONVERSATIONS, CONVERSATIONS.c.id == MESSAGES.c.conversation_id)
        .where(MESSAGES.c.id.in_(ids))
    )
    owners: dict[str, str] = {row[0]: row[1] for row in found.all()}
    await session.execute(delete(USAGE).where(USAGE.c.message_id.in_(ids)))
    day = utcnow().date().isoformat()
    rows = [_row(mid, owner, used[mid], day) for mid, owner in owners.items()]
    if rows:
        await session.execute(insert(USAGE), rows)


def _row(message_id: str, owner: str, record: AssistantRecord, day: str) -> dict[str, Any]:
    usage = record.usage
    assert usage is not None
    return {
        "message_id": message_id,
        "user_id": owner,
        "model": record.model or "",
        "day": day,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_read_tokens": usage.cache_read_tokens,
        "cache_write_tokens": usage.cache_write_tokens,
    }


async def usage_report(
    *,
    session: AsyncSession,
    by: Sequence[Grouping] = GROUPINGS,
    since: date | None = None,
    until: date | None = None,
) -> list[UsageRow]:
    """The sums, grouped `by` the given columns, for the days from `since` to `until`
    (both included); newest day first, then by user and model."""
    rows = await session.execute(_report_query(by, since, until))
    return [
        UsageRow(
            user=row.get("user"),
            model=row.get("model"),
            day=row.get("day"),
            answers=int(row["answers"]),
            input_tokens=int(row["input_tokens"] or 0),
            output_tokens=int(row["output_tokens"] or 0),
            cache_read_tokens=int(row["cache_read_tokens"] or 0),
            cache_write_tokens=int(row["cache_write_tokens"] or 0),
        )
        for row in rows.mappings()
    ]


def _report_query(by: Sequence[Grouping], since: date | None, until: date | None) -> Select[Any]:
    columns = {
        "user": USERS.c.email.label("user"),
        "model": USAGE.c.model.label("model"),
        "day": USAGE.c.day.label("day"),
    }
    keys = [columns[g] for g in GROUPINGS if g in by]
    query = (
        select(
            *keys,
            func.count().label("answers"),
            func.sum(USAGE.c.input_tokens).label("input_tokens"),
            func.sum(USAGE.c.output_tokens).label("output_tokens"),
            func.sum(USAGE.c.cache_read_tokens).label("cache_read_tokens"),
            func.sum(USAGE.c.cache_write_tokens).label("cache_write_tokens"),
        )
        .select_from(USAGE.join(USERS, USERS.c.id == USAGE.c.user_id))
        .group_by(*keys)
    )
    if since is not None:
        query = query.where(USAGE.c.day >= since.isoformat())
    if until is not None:
        query = query.where(USAGE.c.day <= until.isoformat())
    order = [columns["day"].desc()] if "day" in by else []
    return query.order_by(*order, *(k for k in keys if k.name != "day"))


def usage_csv(rows: Sequence[UsageRow], by: Sequence[Grouping] = GROUPINGS) -> str:
    """The report as CSV with a header line: the grouped columns, then the counts."""
    keys = [g for g in GROUPINGS if g in by]
    counts = ["answers", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[*keys, *counts], extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(asdict(row))
    return out.getvalue()
