"""The agent loop: call the model, run the tools it asks for, repeat.

It is an async generator and owns no task: whoever iterates it can cancel it
at any await (the model stream is closed, a running tool is cancelled), and
the partial state is whatever events were already yielded.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from ..defaults import MAX_ITERATIONS, MAX_TOKENS
from ..events import Status, TextDelta, ToolStart, ToolUpdate
from ..models.base import (
    AssistantTurn,
    Model,
    ModelFinish,
    ModelMessage,
    ModelRequest,
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
from ..tools.execute import execute_tool, validation_error
from ..tools.types import ToolConfig, ToolContext, ToolResult
from .events import (
    AgentApprovalRequested,
    AgentComplete,
    AgentError,
    AgentEvent,
    AgentToolComplete,
)
from .pause import LoopResume, LoopState, denied_result

__all__ = ["SUMMARY_INSTRUCTION", "run_agent_loop"]

logger = logging.getLogger(__name__)

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
    max_iterations: int = MAX_ITERATIONS,
    max_tokens: int = MAX_TOKENS,
    temperature: float | None = None,
    retry: RetryPolicy | None = None,
    seal: Callable[[str], str] | None = None,
    resume: LoopResume | None = None,
    can_pause: bool = True,
) -> AsyncIterator[AgentEvent]:
    """Run one user turn to its end; the last event is `AgentComplete` or `AgentError`.

    `seal` is applied to each tool result before the model reads it (the page layer
    breaks up markers in it, so the model cannot turn copied data into buttons).

    A successful call of a tool whose result is the answer (`result_is_answer`, e.g.
    `present_choices`) yields no tool start, only its completion with `in_answer`; the
    step's other calls still run, and then the loop completes without calling the model
    again (the user's reply is the next turn).

    A call of a tool that needs approval ends the loop with `AgentApprovalRequested`,
    whose state `resume` takes back with the user's decision; with `can_pause` False
    (nowhere to keep the state) such a call is refused and the model told so.
    """
    by_name = {t.name: t for t in tools}
    specs = [ToolSpec(t.name, t.description, t.input_schema) for t in tools]
    policy = retry or RetryPolicy()
    if resume is None:
        history: list[ModelMessage] = list(messages)
        usage = TokenUsage()
        first = 1
        paused: LoopState | None = None
    else:
        paused = resume.state
        history, usage, first = list(paused.messages), paused.usage, paused.iteration
    decision = resume  # applies to the waiting call only, once
    last_input = 0

    for iteration in range(first, max_iterations + 2):
        if paused is not None:
            # Resumed: the model already asked for these calls; run the rest of them.
            text, calls = paused.text, list(paused.calls)
            results = list(paused.results)
            paused = None
        else:
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
            model_calls: list[ModelToolCall] = []
            finish: ModelFinish | None = None
            try:
                async for event in stream_with_retry(model, request, policy):
                    if type(event) is TextDelta:
                        if event.text:
                            text_parts.append(event.text)
                            yield event  # the provider's own: nothing is rebuilt per token
                    elif isinstance(event, ModelToolCall):
                        model_calls.append(event)
                    elif isinstance(event, ModelFinish):
                        finish = event
            except ProviderError as err:
                yield AgentError(message=str(err), code=err.kind, usage=usage)
                return
            except ModelOutputError as err:
                yield AgentError(
                    message=f"The model's reply could not be used: {err}",
                    code="model_output",
                    usage=usage,
                )
                return

            if finish is not None:
                usage = usage + finish.usage
                last_input = finish.usage.input_tokens
            stop_reason: StopReason = finish.stop_reason if finish else "end_turn"
            if final_call or not model_calls or not specs:
                if model_calls:
                    logger.info(
                        "ignoring %d tool call(s) the model made after the tool budget",
                        len(model_calls),
                    )
                yield AgentComplete(
                    stop_reason=stop_reason, usage=usage, last_input_tokens=last_input
                )
                return
            text = "".join(text_parts)
            calls = [ToolCallPart(c.id, c.name, c.input) for c in model_calls]
            results = []

        while len(results) < len(calls):
            call = calls[len(results)]
            tool = by_name.get(call.name)
            decided = decision is not None and call.id == decision.state.waiting.id
            reason = None if decided or tool is None else _approval_reason(tool, call.input)
            if reason is not None and can_pause:
                state = LoopState(
                    tuple(history), iteration, usage, text, tuple(calls), tuple(results)
                )
                client = tool is not None and tool.runs_in_client
                yield AgentApprovalRequested(
                    tool=call.name,
                    tool_use_id=call.id,
                    input=call.input,
                    reason=reason,
                    state=state,
                    approval_kind="frontend_tool" if client else "approval",
                )
                return
            result: ToolResult | None = None
            if reason is not None:
                needs = (
                    "runs in the client, which"
                    if tool is not None and tool.runs_in_client
                    else "needs the user's approval, which"
                )
                result = ToolResult(
                    f"{call.name} {needs} cannot be asked for here; it was not run.",
                    is_error=True,
                )
            elif decided and decision is not None and decision.result is not None:
                result = decision.result
            elif decided and decision is not None and not decision.approved:
                result = ToolResult(denied_result(call.name, decision.note), is_error=True)
            if decided:
                decision = None
            in_answer = False
            if result is not None:
                yield ToolStart(tool=call.name, input=call.input, tool_use_id=call.id)
            elif tool is not None and tool.result_is_answer:
                async for item in execute_tool(tool, call.input, context):
                    if isinstance(item, ToolResult):
                        result = item
                assert result is not None
                in_answer = not result.is_error
                if not in_answer:  # a failed one is a tool call like any: a card the model reads
                    yield ToolStart(tool=call.name, input=call.input, tool_use_id=call.id)
            else:
                async for tool_event in _run_one(call, by_name, context):
                    if isinstance(tool_event, ToolResult):
                        result = tool_event
                    else:
                        yield tool_event
            assert result is not None
            sealed = result.text if seal is None else seal(result.text)
            results.append(ToolResultPart(call.id, sealed, result.is_error))
            yield AgentToolComplete(
                tool=call.name,
                tool_use_id=call.id,
                input=call.input,
                output=result.text,
                payload=result.payload,
                is_error=result.is_error,
                in_answer=in_answer,
            )
        if _answered(calls, results, by_name):
            # The answer ends with what the tool showed; the user's reply is the next turn.
            yield AgentComplete(stop_reason="end_turn", usage=usage, last_input_tokens=last_input)
            return
        history.append(AssistantTurn(text, tuple(calls)))
        history.append(ToolResultsTurn(tuple(results)))
        yield Status(message="Thinking...")


def _answered(
    calls: Sequence[ToolCallPart], results: Sequence[ToolResultPart], tools: dict[str, ToolConfig]
) -> bool:
    """Whether a call of the step succeeded with a result that is the answer."""
    for call, result in zip(calls, results, strict=True):
        tool = tools.get(call.name)
        if tool is not None and tool.result_is_answer and not result.is_error:
            return True
    return False


def _approval_reason(tool: ToolConfig, params: dict[str, Any]) -> str | None:
    """Why to ask the user first; never for input the tool would refuse anyway."""
    if validation_error(tool, params) is not None:
        return None
    return tool.approval_needed(params)


async def _run_one(
    call: ToolCallPart, tools: dict[str, ToolConfig], context: ToolContext
) -> AsyncIterator[ToolStart | ToolUpdate | ToolResult]:
    yield ToolStart(tool=call.name, input=call.input, tool_use_id=call.id)
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
            progress = None if item.progress is None else min(1.0, max(0.0, item.progress))
            yield ToolUpdate(
                tool=call.name,
                stage=item.stage,
                message=item.message,
                progress=progress,
                data=item.data,
            )
