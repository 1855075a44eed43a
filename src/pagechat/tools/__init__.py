"""Tools the model can call: configuration, results, progress, the registry."""

from .choices import PRESENT_CHOICES, choices_block
from .execute import execute_tool, schema_error, validation_error
from .registry import clear_tools, get_tool, global_tools, register_tool, unregister_tool
from .types import ToolConfig, ToolContext, ToolExecutor, ToolProgress, ToolResult

__all__ = [
    "PRESENT_CHOICES",
    "ToolConfig",
    "ToolContext",
    "ToolExecutor",
    "ToolProgress",
    "ToolResult",
    "choices_block",
    "clear_tools",
    "execute_tool",
    "get_tool",
    "global_tools",
    "register_tool",
    "schema_error",
    "unregister_tool",
    "validation_error",
]
