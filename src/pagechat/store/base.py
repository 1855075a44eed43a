"""What the chat layer needs from storage: `ChatStore` and the records it takes and gives.

`ChatStore` is the one store, on SQLite or PostgreSQL. Each of its methods is written
once, in the module of its concern: turns.py (a turn's beginning, checkpoints and end,
an applied action), branches.py (regenerate, edit, continue, picking a version),
reads.py (a page, the model's history), conversations.py (list, rename, delete),
search.py, answers.py (a card's decision, feedback), usage.py (tokens by user, model
and day); core.py holds what they share
(sessions, SQLite's one writer at a time, the group commit, turn starts still being
written). The records and errors are records.py's, re-exported here.
"""

from __future__ import annotations

from .answers import Answers
from .branches import Branches
from .conversations import Conversations
from .reads import Reads
from .records import (
    AnswerRunning,
    AssistantRecord,
    BranchKind,
    ConversationNotFound,
    InvalidCursor,
    MessageNotFound,
    NoPayload,
    NotAnAnswer,
    NotBranchable,
    RunFence,
    StartedTurn,
    TurnIds,
)
from .search import Search
from .turns import Turns
from .usage_reads import UsageReads

__all__ = [
    "AnswerRunning",
    "AssistantRecord",
    "BranchKind",
    "ChatStore",
    "ConversationNotFound",
    "InvalidCursor",
    "MessageNotFound",
    "NoPayload",
    "NotAnAnswer",
    "NotBranchable",
    "RunFence",
    "StartedTurn",
    "TurnIds",
]


class ChatStore(Turns, Branches, Reads, Conversations, Search, Answers, UsageReads):
    """Conversations and their messages in the database, one transaction per call (on
    SQLite a turn's own writes share one: store/batch.py).

    Every method that takes `user` answers ConversationNotFound for another user's
    conversation exactly as for a missing one, and waits for that user's turn starts
    still being written (`start_turn`)."""
