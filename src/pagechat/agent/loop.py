"""The agent loop: call the model, run the tools it asks for, repeat.

It is an async generator and owns no task: whoever iterates it can cancel it
at any await (the model stream is closed, a running tool is cancelled), and
the partial state is whatever events were already yielded.

Each iteration is two named steps: the model call (`_call_model`, which ends the turn
when the model asks for no tools, and past the cap is the final call that sums up:
`_request`), then the tool step (`_run_calls`: each call in order, `_run_call`), which
stops before a call that must wait (`_ask_first`, the approval step). A resumed loop
(`_Loop.resumed`, the resume step) starts at the tool step of the iteration it paused
in, with the decision on the waiting call (`_result_without_running`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..defaults import MAX_ITERATIONS, MAX_TOKENS
from ..events import ReasoningDelta, Status, TextDelta, ToolStart, ToolUpdate
from ..models.base import (
    AssistantTurn,
    Model,
    ModelEvent,
    ModelFinish,
    ModelMessage,
    ModelRequest,
    ModelThinking,
    ModelToolCall,
    StopReason,
    ThinkingPart,
    TokenUsage,
    ToolCallPart,
    ToolResultPart,
    ToolResultsTurn,
    ToolSpec,
)
from ..models.errors import ModelOutputError, ProviderError
from ..models.retry import RetryPolicy, stream_with_retry
from ..protocol import Source
from ..tools.execute import execute_tool, validation_error
from ..tools.sources import SourceNumbers, with_sources
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
    cache_prefix: int = 0,
    max_iterations: int = MAX_ITERATIONS,
    max_tokens: int = MAX_TOKENS,
    temperature: float | None = None,
    retry: RetryPolicy | None = None,
    seal: Callable[[str], str] | None = None,
    resume: LoopResume | None = None,
    can_pause: bool = True,
    spent: TokenUsage | None = None,
    sources: Sequence[Source] = (),
) -> AsyncIterator[AgentEvent]:
    """Run one user turn to its end; the last event is `AgentComplete`, `AgentError` or
    `AgentApprovalRequested`.

    `cache_prefix` is how much of `system` is the same on every turn (`ModelRequest`).

    `seal` is applied to each tool result before the model reads it (the page layer
    breaks up markers in it, so the model cannot turn copied data into buttons).

    A successful call of a tool whose result is the answer (`result_is_answer`, e.g.
    `present_choices`) yields no tool start, only its completion with `in_answer`; the
    step's other calls still run, and then the loop completes without calling the model
    again (the user's reply is the next turn).

    A call of a tool that needs approval ends the loop with `AgentApprovalRequested`,
    whose state `resume` takes back with the user's decision; with `can_pause` False
    (nowhere to keep the state) such a call is refused and the model told so.

    `spent`: tokens the answer used before this loop (a worker that stopped, whose answer
    this one goes on with): counted in every usage the loop reports.

    `sources`: the answer's sources numbered before this loop (a resumed or continued
    answer's); each result's sources are numbered on from them (`SourceNumbers`) and listed
    after its text for the model to cite (`with_sources`).
    """
    loop = _Loop(
        system=system,
        cache_prefix=cache_prefix,
        tools={t.name: t for t in tools},
        specs=[ToolSpec(t.name, t.description, t.input_schema) for t in tools],
        context=context,
        max_tokens=max_tokens,
        temperature=temperature,
        policy=retry or RetryPolicy(),
        seal=seal,
        can_pause=can_pause,
        history=list(messages),
        usage=spent or TokenUsage(),
        numbers=SourceNumbers(sources),
    )
    step, first = loop.resumed(resume) if resume is not None else (None, 1)
    for iteration in range(first, max_iterations + 2):
        if step is None:
            # The model call step. Its stream is read here, not in a generator of its own:
            # each generator between the provider and the run is resumed for every token.
            reply = _ModelCall(loop, final_call=iteration > max_iterations)
            try:
                async for event in stream_with_retry(model, reply.request, loop.policy):
                    if type(event) is TextDelta:
                        if event.text:
                            reply.text.append(event.text)
                            yield event  # the provider's own: nothing is rebuilt per token
                    elif type(event) is ReasoningDelta:
                        yield event
                    else:
                        reply.take(event)
            except (ProviderError, ModelOutputError) as err:
                yield reply.failed(err)
                return
            step = reply.tool_step()
            if step is None:
                yield reply.completed()
                return
        async for agent_event in _run_calls(loop, step, iteration):
            yield agent_event
        if step.paused:
            return
        if _answered(step.calls, step.results, loop.tools):
            # The answer ends with what the tool showed; the user's reply is the next turn.
            yield AgentComplete(
                stop_reason="end_turn", usage=loop.usage, last_input_tokens=loop.last_input
            )
            return
        loop.history.append(AssistantTurn(step.text, tuple(step.calls), thinking=step.thinking))
        loop.history.append(ToolResultsTurn(tuple(step.results)))
        yield Status(message="Thinking...")
        step = None


@dataclass(slots=True, kw_only=True)
class _Loop:
    """What the loop's steps share: the turn's settings, and the conversation so far."""

    system: str
    cache_prefix: int
    tools: dict[str, ToolConfig]
    specs: list[ToolSpec]
    context: ToolContext
    max_tokens: int
    temperature: float | None
    policy: RetryPolicy
    seal: Callable[[str], str] | None
    can_pause: bool
    history: list[ModelMessage]
    numbers: SourceNumbers
    """The answer's sources' numbers so far: each result's are numbered on from them."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    last_input: int = 0
    """Prompt size of the last model call."""
    decision: LoopResume | None = None
    """The decision on the call a resumed loop waits for; taken once (`decision_on`)."""

    def resumed(self, resume: LoopResume) -> tuple[_Step, int]:
        """The resume step: the paused state back, and the step and iteration it stopped in
        (the model already asked for those calls; the rest of them run)."""
        state = resume.state
        self.history = list(state.messages)
        self.usage = state.usage
        self.decision = resume
        step = _Step(
            text=state.text,
            calls=list(state.calls),
            results=list(state.results),
            thinking=state.thinking,
        )
        return step, state.iteration

    def decision_on(self, call: ToolCallPart) -> LoopResume | None:
        """The decision if `call` is the one the loop was resumed for; it applies once."""
        decision = self.decision
        if decision is None or call.id != decision.state.waiting.id:
            return None
        self.decision = None
        return decision


@dataclass(slots=True, kw_only=True)
class _Step:
    """One iteration's tool calls: what the model wrote before them, their results so far."""

    text: str
    calls: list[ToolCallPart]
    results: list[ToolResultPart] = field(default_factory=list)
    thinking: tuple[ThinkingPart, ...] = ()
    """The model's reasoning blocks before the calls: sent back with them (Anthropic)."""
    paused: bool = False
    """The step stopped before a call that waits (`AgentApprovalRequested` was yielded)."""


class _ModelCall:
    """The model call step of an iteration: its request, and what its reply asked for.

    Past the cap it is the final call: no tools, and the model is told to sum up."""

    __slots__ = ("_finish", "_loop", "_thinking", "_tool_calls", "final_call", "request", "text")

    def __init__(self, loop: _Loop, *, final_call: bool) -> None:
        self._loop = loop
        self.final_call = final_call
        self.request = ModelRequest(
            system=f"{loop.system}\n\n{SUMMARY_INSTRUCTION}" if final_call else loop.system,
            messages=tuple(loop.history),
            tools=loop.specs,
            max_tokens=loop.max_tokens,
            temperature=loop.temperature,
            tool_choice="none" if final_call else "auto",
            cache_prefix=loop.cache_prefix,
        )
        self.text: list[str] = []
        """The reply's text deltas (the caller reads the stream and appends them)."""
        self._tool_calls: list[ModelToolCall] = []
        self._thinking: list[ThinkingPart] = []
        self._finish: ModelFinish | None = None

    def take(self, event: ModelEvent) -> None:
        """A stream event other than text: a tool call, or the end with its usage (counted
        by `tool_step`, once the stream has ended well)."""
        if isinstance(event, ModelToolCall):
            self._tool_calls.append(event)
        elif isinstance(event, ModelThinking):
            self._thinking.append(event.part)
        elif isinstance(event, ModelFinish):
            self._finish = event

    def failed(self, err: ProviderError | ModelOutputError) -> AgentError:
        """The turn's end when the call failed: the provider's error, or an unusable reply."""
        usage = self._loop.usage
        if isinstance(err, ProviderError):
            return AgentError(message=str(err), code=err.kind, usage=usage)
        return AgentError(
            message=f"The model's reply could not be used: {err}", code="model_output", usage=usage
        )

    def tool_step(self) -> _Step | None:
        """Once the reply has streamed: its tokens counted, and the tool calls it asked
        for; None when it ends the turn (no calls, no tools offered, or the final call)."""
        loop, finish = self._loop, self._finish
        if finish is not None:
            loop.usage = loop.usage + finish.usage
            loop.last_input = finish.usage.input_tokens
        if self.final_call or not self._tool_calls or not self._loop.specs:
            return None
        calls = [ToolCallPart(c.id, c.name, c.input) for c in self._tool_calls]
        return _Step(text="".join(self.text), calls=calls, thinking=tuple(self._thinking))

    def completed(self) -> AgentComplete:
        """The turn's end when the reply ends it (`tool_step` is None)."""
        if self._tool_calls:
            logger.info(
                "ignoring %d tool call(s) the model made after the tool budget",
                len(self._tool_calls),
            )
        finish = self._finish
        stop_reason: StopReason = finish.stop_reason if finish else "end_turn"
        loop = self._loop
        return AgentComplete(
            stop_reason=stop_reason, usage=loop.usage, last_input_tokens=loop.last_input
        )


async def _run_calls(loop: _Loop, step: _Step, iteration: int) -> AsyncIterator[AgentEvent]:
    """The tool step: each call of `step` without a result, in order — unless one must
    wait (`_ask_first`), which pauses the step."""
    while len(step.results) < len(step.calls):
        call = step.calls[len(step.results)]
        tool = loop.tools.get(call.name)
        decision = loop.decision_on(call)
        reason = (
            None if decision is not None or tool is None else _approval_reason(tool, call.input)
        )
        if reason is not None and loop.can_pause:
            yield _ask_first(loop, step, iteration, call, tool, reason)
            step.paused = True
            return
        result = _result_without_running(call, tool, reason, decision)
        async for event in _run_call(loop, step, call, tool, result):
            yield event


def _ask_first(
    loop: _Loop,
    step: _Step,
    iteration: int,
    call: ToolCallPart,
    tool: ToolConfig | None,
    reason: str,
) -> AgentApprovalRequested:
    """The approval step: the loop stops before `call`, with the state to resume from."""
    state = LoopState(
        tuple(loop.history),
        iteration,
        loop.usage,
        step.text,
        tuple(step.calls),
        tuple(step.results),
        step.thinking,
    )
    client = tool is not None and tool.runs_in_client
    return AgentApprovalRequested(
        tool=call.name,
        tool_use_id=call.id,
        input=call.input,
        reason=reason,
        state=state,
        approval_kind="frontend_tool" if client else "approval",
    )


def _result_without_running(
    call: ToolCallPart,
    tool: ToolConfig | None,
    reason: str | None,
    decision: LoopResume | None,
) -> ToolResult | None:
    """What the model reads for a call that is not run: one that must wait but cannot (no
    `can_pause`), one the user denied, one the client ran; None: run it."""
    if reason is not None:
        needs = (
            "runs in the client, which"
            if tool is not None and tool.runs_in_client
            else "needs the user's approval, which"
        )
        return ToolResult(
            f"{call.name} {needs} cannot be asked for here; it was not run.", is_error=True
        )
    if decision is not None and decision.result is not None:
        return decision.result
    if decision is not None and not decision.approved:
        return ToolResult(denied_result(call.name, decision.note), is_error=True)
    return None


async def _run_call(
    loop: _Loop,
    step: _Step,
    call: ToolCallPart,
    tool: ToolConfig | None,
    result: ToolResult | None,
) -> AsyncIterator[AgentEvent]:
    """One call: its start, its progress and its completion; the result joins `step`. A
    call whose result is the answer shows no start unless it failed."""
    in_answer = False
    if result is not None:
        yield ToolStart(tool=call.name, input=call.input, tool_use_id=call.id)
    elif tool is not None and tool.result_is_answer:
        async for item in execute_tool(tool, call.input, loop.context):
            if isinstance(item, ToolResult):
                result = item
        assert result is not None
        in_answer = not result.is_error
        if not in_answer:  # a failed one is a tool call like any: a card the model reads
            yield ToolStart(tool=call.name, input=call.input, tool_use_id=call.id)
    else:
        async for tool_event in _run_one(call, loop.tools, loop.context):
            if isinstance(tool_event, ToolResult):
                result = tool_event
            else:
                yield tool_event
    assert result is not None
    numbered = loop.numbers.number(result.sources) if result.sources else []
    # Sealed whole: a source's title is tool data too.
    read = with_sources(result.text, numbered)
    sealed = read if loop.seal is None else loop.seal(read)
    step.results.append(ToolResultPart(call.id, sealed, result.is_error))
    yield AgentToolComplete(
        tool=call.name,
        tool_use_id=call.id,
        input=call.input,
        output=result.text,
        payload=result.payload,
        is_error=result.is_error,
        in_answer=in_answer,
        usage=loop.usage,
        changes=result.changes,
        sources=tuple(numbered),
    )


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
