"""Tools the model can call: typed functions (`@tool`), configuration, results, progress,
the registry."""

from ..payloads import Payload
from ..protocol import EntityChange, Source
from .chart import CHART, ChartSpecError, chart_payload, validate_chart_spec
from .choices import PRESENT_CHOICES, choices_block
from .execute import execute_tool, schema_error, validation_error
from .function import ToolOptions, function_tool, tool
from .registry import (
    clear_tools,
    get_tool,
    global_tools,
    register_tool,
    registered_tools,
    restore_tools,
    unregister_tool,
)
from .types import ToolConfig, ToolContext, ToolExecutor, ToolProgress, ToolResult

__all__ = [
    "CHART",
    "PRESENT_CHOICES",
    "ChartSpecError",
    "EntityChange",
    "Payload",
    "Source",
    "ToolConfig",
    "ToolContext",
    "ToolExecutor",
    "ToolOptions",
    "ToolProgress",
    "ToolResult",
    "chart_payload",
    "choices_block",
    "clear_tools",
    "execute_tool",
    "function_tool",
    "get_tool",
    "global_tools",
    "register_tool",
    "registered_tools",
    "restore_tools",
    "schema_error",
    "tool",
    "unregister_tool",
    "validate_chart_spec",
    "validation_error",
]
