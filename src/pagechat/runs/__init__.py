"""Server-owned runs and their event logs."""

from .log import EventLog, MemoryEventLog
from .manager import (
    INTERRUPTED_MESSAGE,
    MOVED,
    Claim,
    Draining,
    Run,
    RunManager,
    RunNotFound,
    RunObserver,
    RunsUnavailable,
    TakeoverHook,
    interrupted_event,
    moved_event,
)

__all__ = [
    "INTERRUPTED_MESSAGE",
    "MOVED",
    "Claim",
    "Draining",
    "EventLog",
    "MemoryEventLog",
    "Run",
    "RunManager",
    "RunNotFound",
    "RunObserver",
    "RunsUnavailable",
    "TakeoverHook",
    "interrupted_event",
    "moved_event",
]
