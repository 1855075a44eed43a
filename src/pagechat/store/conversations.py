"""Conversations and messages in the database: keyword-only functions on an `AsyncSession`.

They flush but never commit: the caller owns the transaction. Every function
that takes `owner_id` answers `ConversationNotFound` for another user's
conversation exactly as for a missing one.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from pydantic import BaseModel
from sqlalchemy import (
    CursorResult,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql.elements import BindParameter

from ..protocol import (
    ConversationDetail,
    ConversationList,
    ConversationPublic,
    CustomPayload,
    FeedbackPublic,
    FeedbackRating,
    MessagePublic,
    PayloadDecision,
    Usage,
)
from .base import (
    AnswerRunning,
    AssistantRecord,
    BranchKind,
    ConversationNotFound,
    InvalidCursor,
    MessageNotFound,
    NoPayload,
    NotAnAnswer,
    NotBranchable,
    TurnIds,
    action_summary,
    cursor_value,
)
from .paths import cursor_in, newest_leaf, path_up, sibling_count, sibling_position
from .tables import Conversation, Message, MessageFeedback, utcnow
from .titles import make_title
from .tree import Siblings

__all__ = [
    "INTERRUPTED_NOTE",
    "NewTurn",
    "add_action_message",
    "begin_branch",
    "begin_turn",
    "begin_turns",
    "checkpoint_messages",
    "decide_payload",
    "delete_conversation",
    "finish_messages",
    "get_conversation",
    "list_conversations",
    "mark_interrupted",
    "message_public",
    "recent_messages",
    "rename_conversation",
    "select_branch",
    "set_feedback",
]

INTERRUPTED_NOTE = "The server stopped before this answer was finished."


def _new_id() -> str:
    return uuid.uuid4().hex


def _conversation_public(conv: Conversation) -> ConversationPublic:
    return ConversationPublic(
        id=conv.id, title=conv.title, created_at=conv.created_at, updated_at=conv.updated_at
    )


def message_public(
    row: Message, place: Siblings | None = None, feedback: MessageFeedback | None = None
) -> MessagePublic:
    usage = (
        Usage(input_tokens=row.input_tokens or 0, output_tokens=row.output_tokens or 0)
        if row.input_tokens is not None or row.output_tokens is not None
        else None
    )
    return MessagePublic.model_validate(
        {
            **row.payload,
            "id": row.id,
            "role": row.role,
            "content": row.content,
            "status": row.status,
            "created_at": row.created_at,
            "run_id": row.run_id,
            "usage": usage,
            "error": row.error,
            "context_audit": row.context_audit,
            "payload_decision": row.payload_decision,
            "parent_id": row.parent_id,
            "sibling_count": place.count if place else 1,
            "sibling_position": place.position if place else 1,
            "feedback": _feedback_public(feedback) if feedback else None,
        }
    )


def _feedback_public(row: MessageFeedback) -> FeedbackPublic:
    return FeedbackPublic(
        rating=cast(FeedbackRating, row.rating), comment=row.comment, updated_at=row.updated_at
    )


async def _feedback(
    *, session: AsyncSession, user_id: str, ids: Sequence[str]
) -> dict[str, MessageFeedback]:
    if not ids:
        return {}
    result = await session.execute(
        select(MessageFeedback).where(
            MessageFeedback.user_id == user_id, MessageFeedback.message_id.in_(list(ids))
        )
    )
    return {row.message_id: row for row in result.scalars()}


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
    }
    # Absent keys read back as the protocol's defaults; rows stay small.
    return {name: value for name, value in values.items() if value is not None}


async def _owned(*, session: AsyncSession, owner_id: str, conversation_id: str) -> Conversation:
    result = await session.execute(
        select(Conversation).where(
            Conversation.id == conversation_id, Conversation.owner_id == owner_id
        )
    )
    conv = result.scalar_one_or_none()
    if conv is None:
        raise ConversationNotFound(conversation_id)
    return conv


async def list_conversations(
    *, session: AsyncSession, owner_id: str, offset: int = 0, limit: int = 20
) -> ConversationList:
    total = await session.scalar(
        select(func.count()).select_from(Conversation).where(Conversation.owner_id == owner_id)
    )
    result = await session.execute(
        select(Conversation)
        .where(Conversation.owner_id == owner_id)
        .order_by(Conversation.updated_at.desc(), Conversation.id.desc())
        .offset(offset)
        .limit(limit)
    )
    items = [_conversation_public(c) for c in result.scalars()]
    return ConversationList(items=items, total=total or 0, offset=offset, limit=limit)


async def get_conversation(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    limit: int | None = None,
    before: str | None = None,
) -> ConversationDetail:
    """The conversation and the active path's messages (the newest `limit` before
    `before`), each with its place among its siblings and the owner's feedback.

    One statement, whatever the conversation's length: the owned conversation, joined to
    its path walked up from the leaf (or from the cursor) for `limit + 1` messages
    (store/paths.py), each with its sibling counts and feedback. The cursor is the `seq` of
    the oldest message of the page after it, and the page before walks up from that
    message's parent. Any message of the conversation's is a cursor, on the active path
    or not: a client still showing a branch the user has since left elsewhere gets what
    came before what it shows.
    """
    cursor = cursor_value(before) if before is not None else None
    path = path_up(conversation_id=conversation_id, before=cursor, limit=limit)
    cursor_known = (
        cursor_in(conversation_id=conversation_id, before=cursor) if cursor is not None else true()
    )
    rows = (
        await session.execute(
            select(
                Conversation,
                Message,
                MessageFeedback,
                sibling_count(Message).label("sibling_count"),
                sibling_position(Message).label("sibling_position"),
                cursor_known.label("cursor_known"),
            )
            .select_from(Conversation)
            .outerjoin(path, path.c.conversation_id == Conversation.id)
            .outerjoin(Message, Message.seq == path.c.seq)
            .outerjoin(
                MessageFeedback,
                and_(MessageFeedback.message_id == Message.id, MessageFeedback.user_id == owner_id),
            )
            .where(Conversation.id == conversation_id, Conversation.owner_id == owner_id)
            .order_by(path.c.depth.desc())
        )
    ).all()
    if not rows:
        raise ConversationNotFound(conversation_id)
    conv = rows[0].Conversation
    if not rows[0].cursor_known:
        raise InvalidCursor(before)
    page = [row for row in rows if row.Message is not None]
    older = None
    if limit is not None and len(page) > limit:
        page = page[-limit:]
        older = str(page[0].Message.seq)
    messages = [
        message_public(
            row.Message, Siblings(row.sibling_count, row.sibling_position), row.MessageFeedback
        )
        for row in page
    ]
    return ConversationDetail(
        **_conversation_public(conv).model_dump(),
        messages=messages,
        older=older,
        active_leaf_id=conv.active_leaf_id,
    )


async def rename_conversation(
    *, session: AsyncSession, owner_id: str, conversation_id: str, title: str
) -> ConversationPublic:
    conv = await _owned(session=session, owner_id=owner_id, conversation_id=conversation_id)
    conv.title = title
    await session.flush()
    return _conversation_public(conv)


async def delete_conversation(
    *, session: AsyncSession, owner_id: str, conversation_id: str
) -> None:
    await _owned(session=session, owner_id=owner_id, conversation_id=conversation_id)
    # Explicit, so a database without enforced foreign keys loses no less than one with them.
    await session.execute(
        delete(MessageFeedback).where(
            MessageFeedback.message_id.in_(
                select(Message.id).where(Message.conversation_id == conversation_id)
            )
        )
    )
    await session.execute(delete(Message).where(Message.conversation_id == conversation_id))
    await session.execute(delete(Conversation).where(Conversation.id == conversation_id))


async def ensure_conversation(
    *, session: AsyncSession, owner_id: str, conversation_id: str, title: str
) -> bool:
    existing = await session.get(Conversation, conversation_id)
    if existing is not None:
        if existing.owner_id != owner_id:
            raise ConversationNotFound(conversation_id)
        return False
    now = utcnow()
    session.add(
        Conversation(
            id=conversation_id,
            owner_id=owner_id,
            title=make_title(title),
            created_at=now,
            updated_at=now,
        )
    )
    return True


@dataclass(frozen=True, slots=True)
class NewTurn:
    """A turn to begin: the user's message, in a new conversation or an owned one."""

    owner_id: str
    conversation_id: str | None
    message: str
    run_id: str | None = None
    ids: TurnIds | None = None
    """Made up front (`ChatStore.start_turn`): the run starts before this is written."""


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
            cid = turn.ids.conversation_id if turn.ids is not None else _new_id()
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
        ids = turn.ids or TurnIds(cid, _new_id(), _new_id())
        # In this order: `seq` (the conversation's order) follows the insert order.
        # The question follows the active branch's last message; the answer, the question.
        messages.append(
            _message_row(
                ids.user_message_id, cid, "user", turn.message, now, parent_id=leaves.get(cid)
            )
        )
        messages.append(
            _message_row(
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
        await session.execute(insert(_CONVERSATIONS), new_conversations)
    if touched:
        await session.execute(
            _MOVE_LEAVES, [{"b_id": cid, "b_leaf": leaves[cid], "b_now": now} for cid in touched]
        )
    if messages:
        await session.execute(insert(_MESSAGES), messages)
    return results


def _message_row(
    message_id: str,
    conversation_id: str,
    role: str,
    content: str,
    now: datetime,
    *,
    run_id: str | None = None,
    parent_id: str | None = None,
) -> dict[str, Any]:
    return {
        "id": message_id,
        "conversation_id": conversation_id,
        "parent_id": parent_id,
        "role": role,
        "content": content,
        "status": "running" if role == "assistant" else "complete",
        "run_id": run_id,
        "created_at": now,
        "payload": {},
        "input_tokens": None,
        "output_tokens": None,
        "error": None,
        "context_audit": None,
        "payload_decision": None,
    }


def _table(entity: type[Conversation] | type[Message]) -> Table:
    return cast(Table, entity.__table__)


# The group commit's statements (store/batch.py), built once: building one costs more
# CPU than SQLite takes to run it, and a batch is written every 25 ms under load. Core,
# not the ORM: ORM bulk updates match on the primary key (`seq`), not `id`, and an ORM
# UPDATE first works out what to synchronize in a session that holds nothing.
_CONVERSATIONS = _table(Conversation)
_MESSAGES = _table(Message)
_MOVE_LEAVES = (
    update(_CONVERSATIONS)
    .where(_CONVERSATIONS.c.id == bindparam("b_id"))
    .values(updated_at=bindparam("b_now"), active_leaf_id=bindparam("b_leaf"))
)
_PROGRESS: dict[str, BindParameter[Any]] = {
    "content": bindparam("b_content"),
    "payload": bindparam("b_payload"),
    "input_tokens": bindparam("b_input_tokens"),
    "output_tokens": bindparam("b_output_tokens"),
}
_FINISH = (
    update(_MESSAGES)
    .where(_MESSAGES.c.id == bindparam("b_id"))
    .values(
        **_PROGRESS,
        status=bindparam("b_status"),
        run_id=None,
        error=bindparam("b_error"),
        context_audit=bindparam("b_context_audit"),
    )
)
_TOUCH_FINISHED = (
    update(_CONVERSATIONS)
    .where(
        _CONVERSATIONS.c.id.in_(
            select(_MESSAGES.c.conversation_id).where(
                _MESSAGES.c.id.in_(bindparam("b_ids", expanding=True))
            )
        )
    )
    .values(updated_at=bindparam("b_now"))
)
# Only rows still `running` change: a checkpoint that lands after its answer was
# finished must not put the partial text back.
_CHECKPOINT = (
    update(_MESSAGES)
    .where(_MESSAGES.c.id == bindparam("b_id"), _MESSAGES.c.status == "running")
    .values(**_PROGRESS)
)


async def begin_turn(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str | None,
    message: str,
    run_id: str | None = None,
) -> TurnIds:
    """`begin_turns` for one turn; raises ConversationNotFound."""
    [result] = await begin_turns(
        session=session, turns=[NewTurn(owner_id, conversation_id, message, run_id)]
    )
    if isinstance(result, ConversationNotFound):
        raise result
    return result


async def recent_messages(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    limit: int = 200,
    leaf_id: str | None = None,
) -> list[MessagePublic]:
    """The newest `limit` messages of the path to `leaf_id` (default: the active leaf)
    whose run has ended, oldest first.

    One statement, like a page (`get_conversation`): read at the start of every turn.
    """
    # One more than asked: the path may end with a running placeholder, left out below.
    path = path_up(conversation_id=conversation_id, leaf_id=leaf_id, limit=limit)
    rows = (
        await session.execute(
            select(Conversation.id, Message)
            .select_from(Conversation)
            .outerjoin(path, path.c.conversation_id == Conversation.id)
            .outerjoin(Message, Message.seq == path.c.seq)
            .where(Conversation.id == conversation_id, Conversation.owner_id == owner_id)
            .order_by(path.c.depth.desc())
        )
    ).all()
    if not rows:
        raise ConversationNotFound(conversation_id)
    done = [message_public(msg) for _, msg in rows if msg is not None and msg.status != "running"]
    return done[-limit:]


async def finish_messages(
    *, session: AsyncSession | AsyncConnection, records: Mapping[str, AssistantRecord]
) -> None:
    """Fill placeholders from their runs' folded events, in two statements whatever
    their number. A deleted one is quietly gone."""
    if not records:
        return
    await session.execute(
        _FINISH,
        [
            {
                **_progress(message_id, record),
                "b_status": record.status,
                "b_error": record.error,
                "b_context_audit": record.context_audit,
            }
            for message_id, record in records.items()
        ],
    )
    await session.execute(_TOUCH_FINISHED, {"b_ids": list(records), "b_now": utcnow()})


async def checkpoint_messages(
    *, session: AsyncSession | AsyncConnection, records: Mapping[str, AssistantRecord]
) -> None:
    """Save the progress of running answers, all in one statement.

    Only rows still `running` change: a checkpoint that lands after its answer
    was finished must not put the partial text back.
    """
    if not records:
        return
    await session.execute(
        _CHECKPOINT, [_progress(message_id, record) for message_id, record in records.items()]
    )


def _progress(message_id: str, record: AssistantRecord) -> dict[str, Any]:
    """The bind values a checkpoint and an end both write."""
    usage = record.usage
    return {
        "b_id": message_id,
        "b_content": record.content,
        "b_payload": _payload_of(record),
        "b_input_tokens": usage.input_tokens if usage else None,
        "b_output_tokens": usage.output_tokens if usage else None,
    }


async def add_action_message(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    action: str,
    data: dict[str, Any],
    result: Any,
) -> str:
    conv = await _owned(session=session, owner_id=owner_id, conversation_id=conversation_id)
    now = utcnow()
    conv.updated_at = now
    payload = CustomPayload(
        type="action_result", data={"action": action, "input": data, "result": result}
    )
    content, status = action_summary(action, result)
    msg = Message(
        id=_new_id(),
        conversation_id=conv.id,
        parent_id=conv.active_leaf_id,
        role="action",
        content=content,
        status=status,
        created_at=now,
        payload={"custom_payload": payload.model_dump(mode="json")},
    )
    conv.active_leaf_id = msg.id
    session.add(msg)
    await session.flush()
    return msg.id


async def mark_interrupted(
    *,
    session: AsyncSession,
    run_ids: Collection[str] | None = None,
    keep_run_ids: Collection[str] = (),
    created_before: datetime | None = None,
) -> int:
    """Mark `running` answers `interrupted`, keeping what their checkpoints saved.

    With no filter, every one (at startup no run of ours is alive). `run_ids`:
    only the answers of those runs (their owner died); `keep_run_ids` and
    `created_before` spare runs other workers still own, or may be starting.
    Returns how many were marked.
    """
    statement = update(Message).where(Message.status == "running")
    if run_ids is not None:
        statement = statement.where(Message.run_id.in_(list(run_ids)))
    if keep_run_ids:
        statement = statement.where(
            or_(Message.run_id.is_(None), Message.run_id.not_in(list(keep_run_ids)))
        )
    if created_before is not None:
        statement = statement.where(Message.created_at < created_before)
    result = await session.execute(
        statement.values(status="interrupted", run_id=None, error=INTERRUPTED_NOTE)
    )
    assert isinstance(result, CursorResult)
    return result.rowcount


async def decide_payload(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    message_id: str,
    decision: PayloadDecision,
) -> MessagePublic:
    """Record what the user did with an answer's payload (see `ChatStore.decide_payload`)."""
    await _owned(session=session, owner_id=owner_id, conversation_id=conversation_id)
    result = await session.execute(
        select(Message).where(Message.id == message_id, Message.conversation_id == conversation_id)
    )
    row = result.scalar_one_or_none()
    if row is None:
        raise MessageNotFound(message_id)
    if row.role != "assistant" or not row.payload.get("custom_payload"):
        raise NoPayload(message_id)
    if decision != "dismissed" or row.payload_decision in (None, "dismissed"):
        row.payload_decision = decision
        await session.flush()
    return message_public(row)


async def _message_in(*, session: AsyncSession, conversation_id: str, message_id: str) -> Message:
    result = await session.execute(
        select(Message).where(Message.id == message_id, Message.conversation_id == conversation_id)
    )
    row = result.scalar_one_or_none()
    if row is None:
        raise MessageNotFound(message_id)
    return row


CONTINUABLE = frozenset({"cancelled", "interrupted", "error"})
"""Answers that stopped before their end; a complete one only when cut off by `max_tokens`."""


def check_branch(
    *, kind: BranchKind, role: str, status: str, stop_reason: str | None, is_leaf: bool
) -> None:
    """Raises NotBranchable when `kind` cannot start at this message (both stores' rule)."""
    if kind == "regenerate" and role != "assistant":
        raise NotBranchable("Only an answer can be regenerated.")
    if kind == "edit" and role != "user":
        raise NotBranchable("Only a message you wrote can be edited.")
    if kind == "continue":
        if role != "assistant":
            raise NotBranchable("Only an answer can be continued.")
        if status not in CONTINUABLE and stop_reason != "max_tokens":
            raise NotBranchable("This answer is finished; there is nothing to continue.")
        if not is_leaf:
            raise NotBranchable("Only the last answer of the branch you are on can be continued.")


async def begin_branch(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    message_id: str,
    kind: BranchKind,
    run_id: str,
    message: str | None = None,
) -> TurnIds:
    """See `ChatStore.begin_branch`."""
    conv = await _owned(session=session, owner_id=owner_id, conversation_id=conversation_id)
    target = await _message_in(session=session, conversation_id=conv.id, message_id=message_id)
    running = await session.scalar(
        select(Message.id)
        .where(Message.conversation_id == conv.id, Message.status == "running")
        .limit(1)
    )
    if running is not None:
        raise AnswerRunning(conversation_id)
    check_branch(
        kind=kind,
        role=target.role,
        status=target.status,
        stop_reason=target.payload.get("stop_reason"),
        is_leaf=conv.active_leaf_id == target.id,
    )
    now = utcnow()
    rows: list[dict[str, Any]] = []
    if kind == "continue":
        question_id = target.parent_id or ""
        answer_id = target.id
        target.status = "running"
        target.run_id = run_id
        target.error = None
        target.payload = {k: v for k, v in target.payload.items() if k != "stop_reason"}
    else:
        if kind == "regenerate":
            question_id = target.parent_id or ""
        else:
            question_id = _new_id()
            rows.append(
                _message_row(
                    question_id, conv.id, "user", message or "", now, parent_id=target.parent_id
                )
            )
        answer_id = _new_id()
        rows.append(
            _message_row(
                answer_id, conv.id, "assistant", "", now, run_id=run_id, parent_id=question_id
            )
        )
        await session.execute(insert(_MESSAGES), rows)
    conv.active_leaf_id = answer_id
    conv.updated_at = now
    await session.flush()
    return TurnIds(conv.id, question_id, answer_id)


async def select_branch(
    *, session: AsyncSession, owner_id: str, conversation_id: str, message_id: str, position: int
) -> None:
    """See `ChatStore.select_branch`."""
    conv = await _owned(session=session, owner_id=owner_id, conversation_id=conversation_id)
    # By its id alone: with the conversation in the condition too, PostgreSQL may look the
    # message up by its conversation instead, every message of it (store/paths.py).
    found = (
        await session.execute(
            select(Message.parent_id, Message.conversation_id).where(Message.id == message_id)
        )
    ).first()
    if found is None or found.conversation_id != conv.id or position < 1:
        raise MessageNotFound(message_id)
    # Roots (an edited first question) are siblings too; IS NULL keeps the index in use.
    same_parent = (
        Message.parent_id.is_(None)
        if found.parent_id is None
        else Message.parent_id == found.parent_id
    )
    chosen = await session.scalar(
        select(Message.seq)
        .where(Message.conversation_id == conv.id, same_parent)
        .order_by(Message.seq)
        .offset(position - 1)
        .limit(1)
    )
    if chosen is None:
        raise MessageNotFound(message_id)
    leaf = await session.scalar(newest_leaf(conversation_id=conv.id, start=chosen))
    if leaf is None:  # the conversation was deleted meanwhile
        raise MessageNotFound(message_id)
    conv.active_leaf_id = leaf
    await session.flush()


async def set_feedback(
    *,
    session: AsyncSession,
    owner_id: str,
    conversation_id: str,
    message_id: str,
    rating: FeedbackRating,
    comment: str | None,
) -> MessagePublic:
    """The user's thumbs on an answer, replacing their earlier ones; the message with it."""
    conv = await _owned(session=session, owner_id=owner_id, conversation_id=conversation_id)
    row = await _message_in(session=session, conversation_id=conv.id, message_id=message_id)
    if row.role != "assistant" or row.status == "running":
        raise NotAnAnswer(message_id)
    existing = (await _feedback(session=session, user_id=owner_id, ids=[message_id])).get(
        message_id
    )
    now = utcnow()
    if existing is None:
        existing = MessageFeedback(
            message_id=message_id,
            user_id=owner_id,
            rating=rating,
            comment=comment,
            created_at=now,
            updated_at=now,
        )
        session.add(existing)
    else:
        existing.rating = rating
        existing.comment = comment
        existing.updated_at = now
    await session.flush()
    return message_public(row, feedback=existing)
