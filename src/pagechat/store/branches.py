"""Branches of a conversation: regenerate, edit and continue start one; picking a version
moves the active leaf down another.

A branch starts only while no answer runs in the conversation (`AnswerRunning`). It is
not batched (rare); a run's end is written before its last event is sent, so a client
that saw the answer end finds it ended here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import insert, select

from ..identity import Principal
from .core import StoreCore
from .paths import newest_leaf
from .records import AnswerRunning, BranchKind, MessageNotFound, NotBranchable, TurnIds
from .rows import MESSAGES, message_in, message_row, new_id, owned
from .tables import Message, utcnow

__all__ = ["CONTINUABLE", "Branches"]

CONTINUABLE = frozenset({"cancelled", "interrupted", "error"})
"""Answers that stopped before their end; a complete one only when cut off by `max_tokens`."""


def _check_branch(
    *, kind: BranchKind, role: str, status: str, stop_reason: str | None, is_leaf: bool
) -> None:
    """Raises NotBranchable when `kind` cannot start at this message."""
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


class Branches(StoreCore):
    """The store's part for branches: edits, retries and switching between them."""

    async def begin_branch(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        kind: BranchKind,
        run_id: str,
        message: str | None = None,
        attachments: Sequence[Mapping[str, Any]] = (),
    ) -> TurnIds:
        """Start a branch at `message_id` (see `BranchKind`) and make it the active one.

        `TurnIds.user_message_id` is the question being answered; the answer's placeholder
        (for `continue`, the answer itself, `running` again) is `assistant_message_id`.
        An edit's new question carries `attachments` (`AttachmentRef`s as JSON).
        Raises ConversationNotFound, MessageNotFound, AnswerRunning, NotBranchable.
        """
        async with self._writing(user) as session:
            conv = await owned(session=session, owner_id=user.id, conversation_id=conversation_id)
            target = await message_in(
                session=session, conversation_id=conv.id, message_id=message_id
            )
            running = await session.scalar(
                select(Message.id)
                .where(Message.conversation_id == conv.id, Message.status == "running")
                .limit(1)
            )
            if running is not None:
                raise AnswerRunning(conversation_id)
            _check_branch(
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
                target.run_epoch = 0  # a new run: its first owner writes it
                target.error = None
                target.payload = {k: v for k, v in target.payload.items() if k != "stop_reason"}
            else:
                if kind == "regenerate":
                    question_id = target.parent_id or ""
                else:
                    question_id = new_id()
                    question = message_row(
                        question_id, conv.id, "user", message or "", now, parent_id=target.parent_id
                    )
                    if attachments:  # the edited question's files, or its new ones
                        question["payload"] = {"attachments": [dict(a) for a in attachments]}
                    rows.append(question)
                answer_id = new_id()
                rows.append(
                    message_row(
                        answer_id,
                        conv.id,
                        "assistant",
                        "",
                        now,
                        run_id=run_id,
                        parent_id=question_id,
                    )
                )
                await session.execute(insert(MESSAGES), rows)
            conv.active_leaf_id = answer_id
            conv.updated_at = now
            await session.flush()
            return TurnIds(conv.id, question_id, answer_id)

    async def select_branch(
        self, *, user: Principal, conversation_id: str, message_id: str, position: int
    ) -> None:
        """Show the sibling of `message_id` at `position`: the active leaf becomes the newest
        message down that branch. Raises ConversationNotFound, MessageNotFound."""
        async with self._writing(user) as session:
            conv = await owned(session=session, owner_id=user.id, conversation_id=conversation_id)
            # By its id alone: with the conversation in the condition too, PostgreSQL may look
            # the message up by its conversation instead, every message of it (store/paths.py).
            found = (
                await session.execute(
                    select(Message.parent_id, Message.conversation_id).where(
                        Message.id == message_id
                    )
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
