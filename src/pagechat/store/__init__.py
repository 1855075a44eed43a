"""Storage: the chat layer's interface and its implementations.

`MemoryChatStore` keeps everything in the process; `SqlChatStore` keeps it in
SQLite or PostgreSQL (tables in `tables`, migrations applied by `upgrade`).
"""

from .approvals import Approval
from .base import AssistantRecord, ChatStore, ConversationNotFound, TurnIds
from .db import create_engine, create_sessionmaker
from .memory import MemoryChatStore
from .migrate import upgrade, upgrade_async
from .sql import SqlChatStore
from .tables import Base, JsonColumn, User, UtcDateTime, utcnow
from .titles import make_title
from .users import get_user_by_email

__all__ = [
    "Approval",
    "AssistantRecord",
    "Base",
    "ChatStore",
    "ConversationNotFound",
    "JsonColumn",
    "MemoryChatStore",
    "SqlChatStore",
    "TurnIds",
    "User",
    "UtcDateTime",
    "create_engine",
    "create_sessionmaker",
    "get_user_by_email",
    "make_title",
    "upgrade",
    "upgrade_async",
    "utcnow",
]
