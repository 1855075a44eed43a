"""A turn's rows, many turns at once: what the group commit writes (store/batch.py).

Each function writes any number of turns in a fixed number of statements, on an ORM
session or on a plain Core connection; none commits: the caller owns the transaction.
On PostgreSQL a turn is written alone, through the same functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Integer, String, and_, bindparam, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql.elements import BindParameter

from .records import AssistantRecord, ConversationNotFound, TurnIds
from .rows import CONVERSATIONS, MESSAGES, message_row, new_id
from .tables import Conversation, utcnow
from .titles import make_title
from .usage import record_usage

__all__ = ["NewTurn", "begin_turns", "checkpoint_messages", "finish_messages"]


@dataclass(frozen=True, slots=True)
class NewTurn:
    """A turn to begin: the user's message, in a new conversation or an owned one."""

    owner_id: str
    conversation_id: str | None
    message: str
    run_id: str | None = None
    ids: TurnIds | None = None
    """Made up front (`ChatStore.start_turn`): the run starts before this is written."""
    attachments: tuple[dict[str, Any], ...] = ()
    """The files the user message carries (`AttachmentRef`s as JSON), kept in its payload."""


async def begin_turns(
    *, session: AsyncSession | AsyncConnection, turns: Sequence[NewTurn]
) -> list[TurnIds | ConversationNotFound]:
    """Store each turn's user message and a `running` placeholder for its answer.

    Many turns in a fixed number of statements (one read, three writes), so a burst
    of turns costs the database one short transaction (store/batch.py). A turn whose
    conversation is missing, or another user's, gets `ConversationNotFound` in its
    place and writes nothing; the others are unaffected.
    """
    now = utcnow()
    wanted = {t.conversation_id for t in turns if t.conversation_id is not None}
    owners: dict[str, str] = {}
    leaves: dict[str, str | None] = {}
    if wanted:
        rows = await session.execute(
            select(Conversation.id, Conversation.owner_id, Conversation.active_leaf_id).where(
                Conversation.id.in_(wanted)
            )
        )
        for found, owner, leaf in rows:
            owners[found] = owner
            leaves[found] = leaf
    results: list[TurnIds | ConversationNotFound] = []
    new_conversations: list[dict[str, Any]] = []
    touched: set[str] = set()
    messages: list[dict[str, Any]] = []
    for turn in turns:
        cid = turn.conversation_id
        if cid is None:
            cid = turn.ids.conversation_id if turn.ids is not None else new_id()
            new_conversations.append(
                {
                    "id": cid,
                    "owner_id": turn.owner_id,
                    "title": make_title(turn.message),
                    "created_at": now,
                    "updated_at": now,
                }
            )
        elif owners.get(cid) != turn.owner_id:
            results.append(ConversationNotFound(cid))
            continue
        else:
            touched.add(cid)
        ids = turn.ids or TurnIds(cid, new_id(), new_id())
        # In this order: `seq` (the conversation's order) follows the insert order.
        # The question follows the active branch's last message; the answer, the question.
        question = message_row(
            ids.user_message_id, cid, "user", turn.message, now, parent_id=leaves.get(cid)
        )
        if turn.attachments:
            question["payload"] = {"attachments": list(turn.attachments)}
        messages.append(question)
        messages.append(
            message_row(
                ids.assistant_message_id,
                cid,
                "assistant",
                "",
                now,
                run_id=turn.run_id,
                parent_id=ids.user_message_id,
            )
        )
        leaves[cid] = ids.assistant_message_id
        results.append(ids)
    for conv in new_conversations:
        conv["active_leaf_id"] = leaves[conv["id"]]
    if new_conversations:
        await session.execute(insert(CONVERSATIONS), new_conversations)
    if touched:
        await session.execute(
            _MOVE_LEAVES, [{"b_id": cid, "b_leaf": leaves[cid], "b_now": now} for cid in touched]
        )
    if messages:
        await session.execute(insert(MESSAGES), messages)
    return results


# The group commit's statements (store/batch.py), built once: building one costs more
# CPU than SQLite takes to run it, and a batch is written every 25 ms under load. Core,
# not the ORM: ORM bulk updates match on the primary key (`seq`), not `id`, and an ORM
# UPDATE first works out what to synchronize in a session that holds nothing.
_MOVE_LEAVES = (
    update(CONVERSATIONS)
    .where(CONVERSATIONS.c.id == bindparam("b_id"))
    .values(updated_at=bindparam("b_now"), active_leaf_id=bindparam("b_leaf"))
)
_PROGRESS: dict[str, BindParameter[Any]] = {
    "content": bindparam("b_content"),
    "payload": bindparam("b_payload"),
    "input_tokens": bindparam("b_input_tokens"),
    "output_tokens": bindparam("b_output_tokens"),
}
_ENDING: dict[str, BindParameter[Any]] = {
    "status": bindparam("b_status"),
    "error": bindparam("b_error"),
    "context_audit": bindparam("b_context_audit"),
}
# The fence (`RunFence`): a fenced write names its run and epoch, and lands only while
# the answer belongs to that run and no newer owner of it has written, or over what an
# older owner of it wrote (its end too: it may have stored it while stalled, before the
# new owner's first write); it leaves its epoch. A run's end is written once by each
# owner; a slow old owner that wakes after a takeover changes nothing. The row keeps its
# run's id once finished (clients see it only while running, store/rows.py).
_EPOCH: BindParameter[int] = bindparam("b_epoch", type_=Integer)
_RUNNING = MESSAGES.c.status == "running"
_OWNED = and_(
    MESSAGES.c.run_id == bindparam("b_run", type_=String),
    or_(and_(_RUNNING, MESSAGES.c.run_epoch <= _EPOCH), MESSAGES.c.run_epoch < _EPOCH),
)
_FINISH = update(MESSAGES).where(MESSAGES.c.id == bindparam("b_id")).values(**_PROGRESS, **_ENDING)
_FINISH_FENCED = (
    update(MESSAGES)
    .where(MESSAGES.c.id == bindparam("b_id"), _OWNED)
    .values(**_PROGRESS, **_ENDING, run_epoch=_EPOCH)
)
_TOUCH_FINISHED = (
    update(CONVERSATIONS)
    .where(
        CONVERSATIONS.c.id.in_(
            select(MESSAGES.c.conversation_id).where(
                MESSAGES.c.id.in_(bindparam("b_ids", expanding=True))
            )
        )
    )
    .values(updated_at=bindparam("b_now"))
)
# Only rows still `running` change: a checkpoint that lands after its answer was
# finished must not put the partial text back; a newer owner's does, over an older
# owner's end, and the answer is running again.
_CHECKPOINT = (
    update(MESSAGES).where(MESSAGES.c.id == bindparam("b_id"), _RUNNING).values(**_PROGRESS)
)
_CHECKPOINT_FENCED = (
    update(MESSAGES)
    .where(MESSAGES.c.id == bindparam("b_id"), _OWNED)
    .values(**_PROGRESS, run_epoch=_EPOCH, status="running")
)


async def finish_messages(
    *, session: AsyncSession | AsyncConnection, records: Mapping[str, AssistantRecord]
) -> None:
    """Fill placeholders from their runs' folded events, in at most three statements
    whatever their number. A deleted one is quietly gone."""
    if not records:
        return
    ends = {
        mid: {
            **_progress(mid, record),
            "b_status": record.status,
            "b_error": record.error,
            "b_context_audit": record.context_audit,
        }
        for mid, record in records.items()
    }
    await _fenced_or_not(session, _FINISH, _FINISH_FENCED, records, ends)
    await session.execute(_TOUCH_FINISHED, {"b_ids": list(records), "b_now": utcnow()})
    await record_usage(session=session, records=await _landed(session, records))


async def checkpoint_messages(
    *, session: AsyncSession | AsyncConnection, records: Mapping[str, AssistantRecord]
) -> None:
    """Save the progress of running answers, in at most two statements.

    Only rows still `running` change: a checkpoint that lands after its answer
    was finished must not put the partial text back (unless it comes from a newer owner
    of the answer's run than the one that finished it: `RunFence`).
    """
    if not records:
        return
    values = {mid: _progress(mid, record) for mid, record in records.items()}
    await _fenced_or_not(session, _CHECKPOINT, _CHECKPOINT_FENCED, records, values)


async def _fenced_or_not(
    session: AsyncSession | AsyncConnection,
    plain: Any,
    fenced: Any,
    records: Mapping[str, AssistantRecord],
    values: Mapping[str, dict[str, Any]],
) -> None:
    """Each record's values through `fenced` when it names its writer, else `plain`."""
    with_fence = [values[mid] for mid, record in records.items() if record.writer is not None]
    without = [values[mid] for mid, record in records.items() if record.writer is None]
    if with_fence:
        await session.execute(fenced, with_fence)
    if without:
        await session.execute(plain, without)


async def _landed(
    session: AsyncSession | AsyncConnection, records: Mapping[str, AssistantRecord]
) -> Mapping[str, AssistantRecord]:
    """The records the database took: a fenced end the fence refused (a slow old owner's)
    is not the answer's, nor are its tokens (store/usage.py)."""
    fenced = [mid for mid, record in records.items() if record.writer is not None]
    if not fenced:
        return records
    rows = await session.execute(
        select(MESSAGES.c.id, MESSAGES.c.run_id, MESSAGES.c.run_epoch).where(
            MESSAGES.c.id.in_(fenced)
        )
    )
    owners = {mid: (run, epoch) for mid, run, epoch in rows.all()}
    return {
        mid: record
        for mid, record in records.items()
        if record.writer is None or owners.get(mid) == (record.writer.run_id, record.writer.epoch)
    }


def _progress(message_id: str, record: AssistantRecord) -> dict[str, Any]:
    """The bind values a checkpoint and an end both write (and the writer's fence)."""
    usage = record.usage
    values: dict[str, Any] = {
        "b_id": message_id,
        "b_content": record.content,
        "b_payload": _payload_of(record),
        "b_input_tokens": usage.input_tokens if usage else None,
        "b_output_tokens": usage.output_tokens if usage else None,
    }
    if record.writer is not None:
        values["b_run"] = record.writer.run_id
        values["b_epoch"] = record.writer.epoch
    return values


def _payload_of(record: AssistantRecord) -> dict[str, Any]:
    def dump(items: Sequence[BaseModel] | None) -> list[Any] | None:
        return [item.model_dump(mode="json") for item in items] if items else None

    values: dict[str, Any] = {
        "suggested_values": dump(record.suggested_values),
        "suggested_actions": dump(record.suggested_actions),
        "custom_payload": (
            record.custom_payload.model_dump(mode="json") if record.custom_payload else None
        ),
        "payloads": dump(record.payloads),
        "tool_history": dump(record.tool_history),
        "warnings": list(record.warnings) or None,
        "stop_reason": record.stop_reason,
        "model": record.model,
        # The prompt-cache counts ride in the payload (the token columns predate them).
        "cache_tokens": _cache_tokens(record),
        "reasoning": record.reasoning.model_dump(mode="json") if record.reasoning else None,
    }
    # Absent keys read back as the protocol's defaults; rows stay small.
    return {name: value for name, value in values.items() if value is not None}


def _cache_tokens(record: AssistantRecord) -> list[int] | None:
    usage = record.usage
    if usage is None or not (usage.cache_read_tokens or usage.cache_write_tokens):
        return None
    return [usage.cache_read_tokens, usage.cache_write_tokens]
