"""Storage: the chat layer's interface and its implementations."""

from .base import AssistantRecord, ChatStore, ConversationNotFound, TurnIds
from .memory import MemoryChatStore

__all__ = ["AssistantRecord", "ChatStore", "ConversationNotFound", "MemoryChatStore", "TurnIds"]
