"""The provider-neutral agent loop and its events."""

from .events import (
    AgentApprovalRequested,
    AgentComplete,
    AgentError,
    AgentEvent,
    AgentToolComplete,
)
from .loop import SUMMARY_INSTRUCTION, run_agent_loop
from .pause import LoopResume, LoopState, denied_result

__all__ = [
    "SUMMARY_INSTRUCTION",
    "AgentApprovalRequested",
    "AgentComplete",
    "AgentError",
    "AgentEvent",
    "AgentToolComplete",
    "LoopResume",
    "LoopState",
    "denied_result",
    "run_agent_loop",
]
