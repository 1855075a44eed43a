"""Token accounting: what each answer and each title call used, and the sums an admin reads.

An answer's row (`TurnUsage`) is written in the same transaction that stores the answer's
end (`turn_rows.finish_messages`), replaced when a paused answer ends again with its new
totals, and kept when the conversation is deleted. A conversation-title call
(chat/titles.py) is a model call too: `record_title_usage` gives it a row of its own
(`purpose="title"`). `usage_report` sums the rows by user, model, UTC day and/or purpose,
with the prompt-cache counts apart and the answers counted apart from the title calls.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any, Literal, cast

from sqlalchemy import Select, Table, case, delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from ..protocol import Usage
from .records import AssistantRecord
from .rows import CONVERSATIONS, MESSAGES
from .tables import TurnUsage, User, utcnow

__all__ = [
    "DEFAULT_GROUPING",
    "GROUPINGS",
    "Grouping",
    "Purpose",
    "UsageRow",
    "record_title_usage",
    "record_usage",
    "usage_csv",
    "usage_report",
]

USAGE = cast(Table, TurnUsage.__table__)
USERS = cast(Table, User.__table__)

Grouping = Literal["user", "model", "day", "purpose"]
"""A column the report is grouped by."""
GROUPINGS: tuple[Grouping, ...] = ("user", "model", "day", "purpose")
DEFAULT_GROUPING: tuple[Grouping, ...] = ("user", "model", "day")
"""What a report is grouped by when nobody says: answers and title calls summed together."""
Purpose = Literal["answer", "title"]
"""What a model call was for: an answer, or a conversation's title."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UsageRow:
    """The tokens of the answers sharing the grouped columns (the others are None)."""

    user: str | None = None
    """The user's email."""
    model: str | None = None
    day: str | None = None
    purpose: str | None = None
    """`answer` or `title` (grouped by purpose only)."""
    answers: int
    title_calls: int = 0
    """Conversation-title calls, whose tokens the sums include."""
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
    await session.execute(
        delete(USAGE).where(USAGE.c.message_id.in_(ids), USAGE.c.purpose == "answer")
    )
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
        "purpose": "answer",
    }


async def record_title_usage(
    *, session: AsyncSession, user_id: str, model: str, usage: Usage
) -> None:
    """Write the row of one conversation-title call (an id of its own: a title belongs to
    no message), counted against `user_id` on today's UTC day."""
    await session.execute(
        insert(USAGE).values(
            message_id=uuid.uuid4().hex,
            user_id=user_id,
            model=model,
            day=utcnow().date().isoformat(),
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            purpose="title",
        )
    )


async def usage_report(
    *,
    session: AsyncSession,
    by: Sequence[Grouping] = DEFAULT_GROUPING,
    since: date | None = None,
    until: date | None = None,
) -> list[UsageRow]:
    """The sums, grouped `by` the given columns, for the days from `since` to `until`
    (both included); newest day first, then by user, model and purpose."""
    rows = await session.execute(_report_query(by, since, until))
    return [
        UsageRow(
            user=row.get("user"),
            model=row.get("model"),
            day=row.get("day"),
            purpose=row.get("purpose"),
            answers=int(row["answers"] or 0),
            title_calls=int(row["title_calls"] or 0),
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
        "purpose": USAGE.c.purpose.label("purpose"),
    }
    keys = [columns[g] for g in GROUPINGS if g in by]
    query = (
        select(
            *keys,
            _count(USAGE.c.purpose == "answer").label("answers"),
            _count(USAGE.c.purpose == "title").label("title_calls"),
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


def _count(condition: ColumnElement[bool]) -> ColumnElement[Any]:
    return func.sum(case((condition, 1), else_=0))


def usage_csv(rows: Sequence[UsageRow], by: Sequence[Grouping] = DEFAULT_GROUPING) -> str:
    """The report as CSV with a header line: the grouped columns, then the counts."""
    keys = [g for g in GROUPINGS if g in by]
    counts = [
        "answers",
        "title_calls",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
    ]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[*keys, *counts], extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(asdict(row))
    return out.getvalue()
