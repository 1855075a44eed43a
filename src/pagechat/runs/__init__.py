"""Server-owned runs and their event logs."""

from .log import EventLog, MemoryEventLog
from .manager import (
    INTERRUPTED_MESSAGE,
    Draining,
    Run,
    RunManager,
    RunNotFound,
    RunObserver,
    RunsUnavailable,
    interrupted_event,
)

__all__ = [
    "INTERRUPTED_MESSAGE",
    "Draining",
    "EventLog",
    "MemoryEventLog",
    "Run",
    "RunManager",
    "RunNotFound",
    "RunObserver",
    "RunsUnavailable",
    "interrupted_event",
]
