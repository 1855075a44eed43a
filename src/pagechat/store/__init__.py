"""Storage: the chat layer's interface and its implementations.

`MemoryChatStore` keeps everything in the process; `SqlChatStore` keeps it in
SQLite or PostgreSQL (tables in `tables`, migrations applied by `upgrade`).
"""

from .base import AssistantRecord, ChatStore, ConversationNotFound, TurnIds
from .db import create_engine, create_sessionmaker
from .memory import MemoryChatStore
from .migrate import upgrade, upgrade_async
from .sql import SqlChatStore
from .tables import Base
from .titles import make_title

__all__ = [
    "AssistantRecord",
    "Base",
    "ChatStore",
    "ConversationNotFound",
    "MemoryChatStore",
    "SqlChatStore",
    "TurnIds",
    "create_engine",
    "create_sessionmaker",
    "make_title",
    "upgrade",
    "upgrade_async",
]
