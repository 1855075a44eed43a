"""The active path read in SQL from its newest end, a page at a time.

A conversation's messages form a tree (`messages.parent_id`), and what a reader sees is
the path from the root to a leaf. Reading the whole tree to find that path costs the
conversation's length on every page; walking up from the leaf with a recursive CTE, one
parent at a time (a lookup on the unique `messages.id`) and stopping after the page, costs
the page alone.

The walk names no conversation: each row carries its own `conversation_id`, and the caller
joins the path to the (owned) conversation on it. A `conversation_id = ...` condition in
the walk invites PostgreSQL to look parents up on a `conversation_id` index instead, and
for a conversation it believes short (one missing from its statistics: any new one) it
does, scanning the whole conversation at every step (a second for 200 steps of 10,000).

Each step up also asks for a lower `seq`: a parent is always written before its child, so
this holds for every path, and it ends the walk even on a corrupted tree with a cycle.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CTE,
    ColumnElement,
    Integer,
    Select,
    case,
    func,
    literal_column,
    select,
)
from sqlalchemy.orm import aliased

from .tables import Conversation, Message

__all__ = ["cursor_in", "newest_leaf", "path_up", "sibling_count", "sibling_position"]


def path_up(
    *,
    conversation_id: str,
    leaf_id: str | None = None,
    before: int | None = None,
    limit: int | None = None,
) -> CTE:
    """A path up to the root, newest first, as rows of (`seq`, `parent_id`,
    `conversation_id`, `depth`): depth 1 is where the walk starts, the root is deepest.

    It starts at `leaf_id`, at `conversation_id`'s active leaf if None, or, with `before`,
    at the parent of the message whose `seq` that is (the page before it). With `limit`,
    it stops after `limit + 1` messages: the one past the page says whether there is an
    older page. The caller keeps the rows of its conversation (see above): a start in
    another conversation gives none.
    """
    start: ColumnElement[Any] | str
    if before is not None:
        later = aliased(Message)
        start = select(later.parent_id).where(later.seq == before).scalar_subquery()
    elif leaf_id is not None:
        start = leaf_id
    else:
        start = (
            select(Conversation.active_leaf_id)
            .where(Conversation.id == conversation_id)
            .scalar_subquery()
        )
    # A typed literal, not a bound value: PostgreSQL must know the column's type where
    # the recursive part adds to it.
    first = select(
        Message.seq,
        Message.parent_id,
        Message.conversation_id,
        literal_column("1", Integer).label("depth"),
    ).where(Message.id == start)
    path = first.cte("path", recursive=True)
    parent = aliased(Message)
    step = (
        select(parent.seq, parent.parent_id, parent.conversation_id, path.c.depth + 1)
        .join(path, parent.id == path.c.parent_id)
        .where(parent.seq < path.c.seq)
    )
    if limit is not None:
        step = step.where(path.c.depth <= limit)
    return path.union_all(step)


def newest_leaf(*, conversation_id: str, start: int) -> Select[str]:
    """The id of the leaf reached down from the message whose `seq` is `start` by always
    taking the newest child: where a switched-to branch ends.

    A recursive CTE of `seq`s, one step per message below `start` on that branch. Each
    step is two lookups made as scalar subqueries, the step's id by its `seq` (the primary
    key) and its newest child on the (conversation_id, parent_id, seq) index, and
    nothing else: no join the planner could turn into a scan. (A walk that joined
    `messages` to a correlated subquery was sometimes planned by PostgreSQL as a hash
    join over every message, depending on its statistics.) Unlike `path_up`'s steps, the
    child lookup names the conversation: the index starts with it, and with the parent
    given too, no other index finds fewer rows, whatever the statistics say. Each step
    asks for a higher `seq`, which ends the walk even on a corrupted tree with a cycle.
    """
    first = select(Message.seq, literal_column("1", Integer).label("depth")).where(
        Message.seq == start
    )
    down = first.cte("down", recursive=True)
    step_message, child = aliased(Message), aliased(Message)
    step_id = (
        select(step_message.id)
        .where(step_message.seq == down.c.seq)
        .correlate(down)  # SQLAlchemy correlates only one level up by itself
        .scalar_subquery()
    )
    newest_child = (
        select(child.seq)
        .where(
            child.conversation_id == conversation_id,
            child.parent_id == step_id,
            child.seq > down.c.seq,
        )
        .order_by(child.seq.desc())
        .limit(1)
        .scalar_subquery()
    )
    # The last step finds no child: its row's `seq` is NULL, and the walk stops there.
    step = select(newest_child, down.c.depth + 1).where(down.c.seq.is_not(None))
    walk = down.union_all(step)
    deepest = (
        select(walk.c.seq)
        .where(walk.c.seq.is_not(None))
        .order_by(walk.c.depth.desc())
        .limit(1)
        .scalar_subquery()
    )
    return select(Message.id).where(Message.seq == deepest)


def cursor_in(*, conversation_id: str, before: int) -> ColumnElement[bool]:
    """Whether `before` is the `seq` of one of `conversation_id`'s messages: a cursor
    some page of it gave (an empty page is also what its first message's gives)."""
    later = aliased(Message)
    owner = select(later.conversation_id).where(later.seq == before).scalar_subquery()
    return func.coalesce(owner == conversation_id, False)


def sibling_count(message: type[Message]) -> ColumnElement[int]:
    """How many messages share `message`'s parent (itself included), on the
    (conversation_id, parent_id, seq) index."""
    return _siblings(message, up_to_itself=False)


def sibling_position(message: type[Message]) -> ColumnElement[int]:
    """`message`'s 1-based place among its siblings, in the order they were written."""
    return _siblings(message, up_to_itself=True)


def _siblings(message: type[Message], *, up_to_itself: bool) -> ColumnElement[int]:
    sibling = aliased(Message)

    def counted(same_parent: ColumnElement[bool]) -> ColumnElement[int]:
        query = select(func.count()).where(
            sibling.conversation_id == message.conversation_id, same_parent
        )
        if up_to_itself:
            query = query.where(sibling.seq <= message.seq)
        return query.scalar_subquery()

    # Roots (an edited first question has siblings too) are compared with IS NULL in a
    # branch of their own: PostgreSQL uses no index for IS NOT DISTINCT FROM.
    return case(
        (message.parent_id.is_(None), counted(sibling.parent_id.is_(None))),
        else_=counted(sibling.parent_id == message.parent_id),
    )
