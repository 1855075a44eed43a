"""Conversation search: the database's own full-text index over titles and message text.

SQLite: FTS5 tables (`messages_fts`, keyed by the message's `seq`; `conversations_fts`,
titles), each row with its owner's id as an indexed column, kept current by triggers
(migrations pagechat_0005, pagechat_0007, pagechat_0012). A message is indexed by what
the user read (`searchable_text`, kept in `messages.search_text` when it differs from
the content, store/read_text.py), so words of a choices block's JSON find nothing. A
search's MATCH names the owner, so the index itself answers with the owner's rows only;
the join on `conversations` that follows checks the owner again. PostgreSQL: GIN indexes
on `to_tsvector('simple', ...)` of the same text, which the database keeps current. A
running answer is left out until it ends: its text changes every checkpoint.

What the user typed is never query syntax: it is cut into words (letters and
digits), and each word must match the start of a word of the title or of one
message, so `"`, `*`, `NEAR`, `:` or `&` mean nothing. The `simple` configuration
and FTS5's `unicode61` tokenizer both lower-case without stemming, so the two
databases find the same conversations.
"""

from __future__ import annotations

import re

from sqlalchemy import Select, func, select, text

from ..identity import Principal
from ..protocol import ConversationSearchHit
from .core import StoreCore
from .read_text import snippet_of
from .rows import conversation_public
from .tables import Conversation, Message

__all__ = ["MAX_TERMS", "Search", "fts5_match", "search_terms"]

MAX_TERMS = 8
"""More words than this are dropped: each one narrows the search further anyway."""
_MAX_TERM_CHARS = 64
_WORD = re.compile(r"[^\W_]+")


def search_terms(query: str) -> list[str]:
    """The distinct words of `query`, lower-cased, at most `MAX_TERMS`."""
    words = (w[:_MAX_TERM_CHARS] for w in _WORD.findall(query.casefold()))
    return list(dict.fromkeys(words))[:MAX_TERMS]


# A literal, not a parameter: PostgreSQL's partial index is used only for what it implies.
_FINISHED = text("messages.status <> 'running'")
_SIMPLE = text("'simple'::regconfig")


def fts5_match(column: str, owner_id: str, terms: list[str]) -> str:
    """The FTS5 query for rows of `owner_id` whose `column` has every term as a prefix."""
    # Words hold letters and digits only; quoted, each is a plain prefix term. The owner
    # is a phrase of its own column (quotes doubled), so no term can match an id.
    words = " ".join(f'"{t}"*' for t in terms)
    owner = owner_id.replace('"', '""')
    return f'owner_id : "{owner}" AND {column} : ({words})'


def _tsquery(terms: list[str]) -> str:
    return " & ".join(f"{t}:*" for t in terms)


def _message_hits(dialect: str, owner_id: str, terms: list[str], limit: int) -> Select[str, int]:
    newest = func.max(Message.seq)
    query = (
        select(Message.conversation_id, newest)
        .join(Conversation, Conversation.id == Message.conversation_id)
        .where(Conversation.owner_id == owner_id, _FINISHED)
        .group_by(Message.conversation_id)
        .order_by(func.max(Conversation.updated_at).desc())
        .limit(limit)
    )
    if dialect == "sqlite":
        found = text("SELECT rowid FROM messages_fts WHERE messages_fts MATCH :match")
        match = fts5_match("content", owner_id, terms)
        return query.where(Message.seq.in_(found.bindparams(match=match)))
    # The expression of the index (pagechat_0012), so that the planner uses it.
    vector = func.to_tsvector(_SIMPLE, func.coalesce(Message.search_text, Message.content))
    return query.where(vector.bool_op("@@")(func.to_tsquery(_SIMPLE, _tsquery(terms))))


def _title_hits(dialect: str, owner_id: str, terms: list[str], limit: int) -> Select[str]:
    query = (
        select(Conversation.id)
        .where(Conversation.owner_id == owner_id)
        .order_by(Conversation.updated_at.desc())
        .limit(limit)
    )
    if dialect == "sqlite":
        found = text(
            "SELECT conversation_id FROM conversations_fts WHERE conversations_fts MATCH :match"
        )
        match = fts5_match("title", owner_id, terms)
        return query.where(Conversation.id.in_(found.bindparams(match=match)))
    vector = func.to_tsvector(_SIMPLE, Conversation.title)
    return query.where(vector.bool_op("@@")(func.to_tsquery(_SIMPLE, _tsquery(terms))))


class Search(StoreCore):
    """The store's part for searching the user's conversations."""

    async def search_conversations(
        self, *, user: Principal, terms: list[str], limit: int = 20
    ) -> list[ConversationSearchHit]:
        """The user's conversations whose title, or one of whose finished messages, holds
        every term at the start of a word, most recently active first: the newest `limit`
        of those whose messages match and of those whose title does, merged."""
        async with self._reading(user) as session:
            if not terms:
                return []
            dialect = session.get_bind().dialect.name
            rows = await session.execute(_message_hits(dialect, user.id, terms, limit))
            newest = {conversation_id: seq for conversation_id, seq in rows}
            titled = set((await session.scalars(_title_hits(dialect, user.id, terms, limit))).all())
            ids = set(newest) | titled
            if not ids:
                return []
            conversations = (
                await session.scalars(
                    select(Conversation)
                    .where(Conversation.id.in_(ids))
                    .order_by(Conversation.updated_at.desc(), Conversation.id.desc())
                    .limit(limit)
                )
            ).all()
            seqs = [newest[c.id] for c in conversations if c.id in newest]
            messages = {
                m.seq: m
                for m in (await session.scalars(select(Message).where(Message.seq.in_(seqs))))
            }
        hits = []
        for conv in conversations:
            public = conversation_public(conv)
            message = messages.get(newest.get(conv.id, -1))
            if message is None:
                hits.append(ConversationSearchHit(conversation=public, snippet=conv.title))
            else:
                hits.append(
                    ConversationSearchHit(
                        conversation=public,
                        snippet=snippet_of(message.content, terms),
                        message_id=message.id,
                    )
                )
        return hits
