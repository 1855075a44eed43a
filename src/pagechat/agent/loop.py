"""The agent loop: call the model, run the tools it asks for, repeat.

It is an async generator and owns no task: whoever iterates it can cancel it
at any await (the model stream is closed, a running tool is cancelled), and
the partial state is whatever events were already yielded.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence

from ..models.base import (
    AssistantTurn,
    Model,
    ModelFinish,
    ModelMessage,
    ModelRequest,
    ModelTextDelta,
    ModelToolCall,
    StopReason,
    TokenUsage,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    ToolSpec,
)
from ..models.errors import ModelOutputError, ProviderError
from ..models.retry import RetryPolicy, stream_with_retry
from ..tools.execute import execute_tool
from ..tools.types import ToolConfig, ToolContext, ToolResult
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

__all__ = ["DEFAULT_MAX_ITERATIONS", "SUMMARY_INSTRUCTION", "run_agent_loop"]

logger = logging.getLogger(__name__)

DEFAULT_MAX_ITERATIONS = 5

SUMMARY_INSTRUCTION = (
    "You have used all the tool calls available for this turn. Do not call any more tools. "
    "Answer the user now: summarise what you found and say what is still open."
)


async def run_agent_loop(
    *,
    model: Model,
    system: str,
    messages: Sequence[ModelMessage],
    tools: Sequence[ToolConfig],
    context: ToolContext,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    max_tokens: int = 4096,
    temperature: float | None = None,
    retry: RetryPolicy | None = None,
    seal: Callable[[str], str] | None = None,
) -> AsyncIterator[AgentEvent]:
    """Run one user turn to its end; the last event is `AgentComplete` or `AgentError`.

    `seal` is applied to each tool result before the model reads it (the page layer
    breaks up markers in it, so the model cannot turn copied data into buttons).
    """
    history: list[ModelMessage] = list(messages)
    by_name = {t.name: t for t in tools}
    specs = [ToolSpec(t.name, t.description, t.input_schema) for t in tools]
    usage = TokenUsage()
    policy = retry or RetryPolicy()

    for iteration in range(1, max_iterations + 2):
        final_call = iteration > max_iterations
        request = ModelRequest(
            system=f"{system}\n\n{SUMMARY_INSTRUCTION}" if final_call else system,
            messages=tuple(history),
            tools=specs,
            max_tokens=max_tokens,
            temperature=temperature,
            tool_choice="none" if final_call else "auto",
        )
        text_parts: list[str] = []
        calls: list[ModelToolCall] = []
        finish: ModelFinish | None = None
        try:
            async for event in stream_with_retry(model, request, policy):
                if isinstance(event, ModelTextDelta):
                    if event.text:
                        text_parts.append(event.text)
                        yield AgentTextDelta(event.text)
                elif isinstance(event, ModelToolCall):
                    calls.append(event)
                else:
                    finish = event
        except ProviderError as err:
            yield AgentError(str(err), err.kind, usage)
            return
        except ModelOutputError as err:
            yield AgentError(f"The model's reply could not be used: {err}", "model_output", usage)
            return

        if finish is not None:
            usage = usage + finish.usage
        stop_reason: StopReason = finish.stop_reason if finish else "end_turn"
        if final_call or not calls or not specs:
            if calls:
                logger.info(
                    "ignoring %d tool call(s) the model made after the tool budget", len(calls)
                )
            yield AgentComplete(stop_reason, usage, finish.usage.input_tokens if finish else 0)
            return

        results: list[ToolResultPart] = []
        for call in calls:
            result: ToolResult | None = None
            async for tool_event in _run_one(call, by_name, context):
                if isinstance(tool_event, ToolResult):
                    result = tool_event
                else:
                    yield tool_event
            assert result is not None
            text = result.text if seal is None else seal(result.text)
            results.append(ToolResultPart(call.id, text, result.is_error))
            yield AgentToolComplete(
                call.name, call.id, call.input, result.text, result.payload, result.is_error
            )
        history.append(
            AssistantTurn(
                "".join(text_parts), tuple(ToolCallPart(c.id, c.name, c.input) for c in calls)
            )
        )
        history.append(ToolResultsTurn(tuple(results)))
        yield AgentThinking("Thinking...")


async def _run_one(
    call: ModelToolCall, tools: dict[str, ToolConfig], context: ToolContext
) -> AsyncIterator[AgentToolStart | AgentToolProgress | ToolResult]:
    yield AgentToolStart(call.name, call.input, call.id)
    tool = tools.get(call.name)
    if tool is None:
        yield ToolResult(
            f"Unknown tool {call.name!r}. Available: {', '.join(tools)}.", is_error=True
        )
        return
    async for item in execute_tool(tool, call.input, context):
        if isinstance(item, ToolResult):
            yield item
        else:
            yield AgentToolProgress(call.name, item.stage, item.message, item.progress, item.data)
