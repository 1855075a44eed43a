"""Storage: `ChatStore` on SQLite or PostgreSQL (tables in `tables`, migrations applied
by `upgrade`)."""

from .approvals import Approval
from .base import AssistantRecord, ChatStore, ConversationNotFound, TurnIds
from .db import create_engine, create_sessionmaker
from .migrate import upgrade, upgrade_async
from .tables import Base, JsonColumn, User, UtcDateTime, utcnow
from .titles import make_title
from .users import get_user_by_email

SqlChatStore = ChatStore
"""`ChatStore`'s name from when an in-memory store stood beside it."""

__all__ = [
    "Approval",
    "AssistantRecord",
    "Base",
    "ChatStore",
    "ConversationNotFound",
    "JsonColumn",
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
