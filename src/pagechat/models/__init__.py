"""LLM providers behind one streaming interface, and models for tests."""

from .base import (
    AssistantTurn,
    Model,
    ModelEvent,
    ModelFinish,
    ModelMessage,
    ModelRequest,
    ModelToolCall,
    StopReason,
    TextDelta,
    TokenUsage,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    ToolSpec,
    UserTurn,
)
from .errors import ModelOutputError, ProviderError, ProviderErrorKind
from .retry import retry_after_seconds
from .testing import FunctionModel, Pause, ScriptedModel, ScriptItem, tool_call

__all__ = [
    "AssistantTurn",
    "FunctionModel",
    "Model",
    "ModelEvent",
    "ModelFinish",
    "ModelMessage",
    "ModelOutputError",
    "ModelRequest",
    "ModelToolCall",
    "Pause",
    "ProviderError",
    "ProviderErrorKind",
    "ScriptItem",
    "ScriptedModel",
    "StopReason",
    "TextDelta",
    "TokenUsage",
    "ToolCallPart",
    "ToolResultPart",
    "ToolResultsTurn",
    "ToolSpec",
    "UserTurn",
    "retry_after_seconds",
    "tool_call",
]
