"""The provider-neutral agent loop and its events."""

from .events import (
    AgentComplete,
    AgentError,
    AgentEvent,
    AgentTextDelta,
    AgentThinking,
    AgentToolComplete,
    AgentToolProgress,
    AgentToolStart,
)
from .loop import DEFAULT_MAX_ITERATIONS, SUMMARY_INSTRUCTION, run_agent_loop

__all__ = [
    "DEFAULT_MAX_ITERATIONS",
    "SUMMARY_INSTRUCTION",
    "AgentComplete",
    "AgentError",
    "AgentEvent",
    "AgentTextDelta",
    "AgentThinking",
    "AgentToolComplete",
    "AgentToolProgress",
    "AgentToolStart",
    "run_agent_loop",
]
