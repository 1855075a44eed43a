"""One chat turn: request → prompt → agent loop → events → stored message."""

from .history import DEFAULT_HISTORY_BUDGET, build_history
from .service import ChatConfig, ChatService, ModelSource

__all__ = [
    "DEFAULT_HISTORY_BUDGET",
    "ChatConfig",
    "ChatService",
    "ModelSource",
    "build_history",
]
