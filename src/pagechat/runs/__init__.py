"""Server-owned runs and their event logs."""

from .log import EventLog, MemoryEventLog
from .manager import Run, RunManager, RunNotFound, RunObserver

__all__ = ["EventLog", "MemoryEventLog", "Run", "RunManager", "RunNotFound", "RunObserver"]
