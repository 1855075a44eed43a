"""AG-UI: pagechat's events of a run, told as the AG-UI protocol's events.

An AG-UI client (CopilotKit, `@ag-ui/client`) sends a `RunAgentInput` and reads
a stream of AG-UI events. The run behind it is an ordinary pagechat run —
stored, stoppable, with the page context — and `AguiStream`, a stream adapter
(`pagechat.streams`), tells each of its events (typed, read from the run's log) as the
AG-UI events that say the same thing:

text deltas become one text message per stretch of text, tool calls and their
results become TOOL_CALL_* events, payloads, suggestions and choices become
CUSTOM events, and the run ends with RUN_FINISHED (outcome `success` or
`cancelled`) or RUN_ERROR. docs/interop.md has the full table.

`[[tool:N]]` markers are pagechat's own way to place tool cards in the text, so
they are left out of the text messages; the tool calls stand in their place.

A call of one of the client's frontend tools (`chat/frontend_tools.py`) ends the run
with TOOL_CALL_START/ARGS/END, for the client to run; its result resumes the turn in a
new run, which skips what the client has already seen (pagechat's replay of the answer
so far, and the call itself). A payload its page declares as a change of the shared
state (`PayloadConfig.state_key`) is also sent as a STATE_DELTA.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any, assert_never

from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    Interrupt,
    ReasoningEndEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    ReasoningStartEvent,
    RunErrorEvent,
    RunFinishedCancelledOutcome,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)
from pydantic import TypeAdapter

from .events import (
    ApprovalRequested,
    ApprovalResolved,
    Cancelled,
    Complete,
    Error,
    ReasoningDelta,
    ReplyParts,
    RunEvent,
    Status,
    TextDelta,
    ToolComplete,
    ToolStart,
    ToolUpdate,
)
from .pages.choices import find_choice_blocks
from .protocol import TOOL_MARKER, ChatResponsePayload
from .runs.log import sse_frame
from .streams import UNSENDABLE, StreamAdapter

__all__ = ["AguiStream", "conversation_for_thread"]


_TIME: TypeAdapter[datetime | None] = TypeAdapter(datetime | None)


def conversation_for_thread(*, owner_id: str, thread_id: str) -> str:
    """The conversation id of a user's AG-UI thread.

    Derived, not looked up: the same thread always reaches the same conversation,
    and one user's thread id can never name another user's conversation.
    """
    return hashlib.sha256(f"agui\0{owner_id}\0{thread_id}".encode()).hexdigest()[:32]


def _id() -> str:
    return uuid.uuid4().hex


def _pointer(key: str) -> str:
    """The JSON Pointer (RFC 6901) of a top-level key."""
    return "/" + key.replace("~", "~0").replace("/", "~1")


def _frame(event: BaseEvent) -> bytes:
    """One AG-UI event as its SSE frame (what ag_ui's `EventEncoder` writes)."""
    return sse_frame(event.model_dump_json(by_alias=True).encode())


class AguiStream(StreamAdapter):
    """One run's events told as AG-UI events, keeping the ids they share."""

    def __init__(
        self,
        *,
        thread_id: str,
        run_id: str,
        state: Any = None,
        frontend_tools: Collection[str] = (),
        resumed_call: str | None = None,
        state_keys: Mapping[str, str] | None = None,
    ) -> None:
        self.thread_id = thread_id
        self.run_id = run_id
        self._state = state
        self._text_id: str | None = None
        self._reasoning_id: str | None = None
        """The open reasoning message: any event but a reasoning delta ends it."""
        self._tool_ids: list[str] = []
        self._frontend = frozenset(frontend_tools)
        self._resumed_call = resumed_call
        """The frontend tool call whose result (from the client) resumed this run."""
        self._replaying = resumed_call is not None
        """A resumed run first replays the answer so far, which the client has already."""
        self._state_keys = dict(state_keys or {})
        self._opened = False
        self._told: list[dict[str, Any]] = []
        """The model's cards told as they came (`reply_parts`): the end tells the rest."""
        self._values: list[dict[str, Any]] = []
        self._actions: list[dict[str, Any]] = []

    def opening(self) -> bytes:
        """RUN_STARTED and the state snapshot."""
        frames = _frame(RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id)) + _frame(
            StateSnapshotEvent(snapshot=self._state if self._state is not None else {})
        )
        self._opened = True
        return frames

    def failed(self) -> bytes:
        """RUN_ERROR (after RUN_STARTED, when the opening itself could not be made)."""
        started = (
            b""
            if self._opened
            else _frame(RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id))
        )
        return started + _frame(RunErrorEvent(message=UNSENDABLE, code="unsendable"))

    def render(self, seq: int, event: RunEvent) -> bytes:
        return b"".join(_frame(e) for e in self.translate(event))

    def translate(self, event: RunEvent) -> list[BaseEvent]:
        """The AG-UI events that say what this pagechat event says (none for some)."""
        if self._replaying or self._is_resumed_call(event):
            if isinstance(event, ToolStart):  # numbered still: tool_complete names calls by index
                self._tool_ids.append(event.tool_use_id or _id())
            elif isinstance(event, ReplyParts):  # the client has them from the paused run
                self._reply_parts(event)
            elif isinstance(event, ApprovalResolved):
                self._replaying = False
            return []
        if self._reasoning_id is not None and not isinstance(event, ReasoningDelta):
            return [*self._close_reasoning(), *self._events(event)]
        return self._events(event)

    def _events(self, event: RunEvent) -> list[BaseEvent]:
        match event:
            case TextDelta():
                return self._text(event.text)
            case ToolStart():
                call_id = event.tool_use_id or _id()
                self._tool_ids.append(call_id)
                return self._tool_call(call_id, event.tool, event.input)
            case ToolUpdate():
                value = {
                    "tool": event.tool,
                    "stage": event.stage,
                    "message": event.message,
                    "progress": event.progress,
                }
                return [CustomEvent(name="pagechat.tool_progress", value=value)]
            case ToolComplete():
                index = event.index
                call_id = self._tool_ids[index] if 0 <= index < len(self._tool_ids) else _id()
                return [
                    ToolCallResultEvent(
                        message_id=_id(), tool_call_id=call_id, content=event.output or ""
                    )
                ]
            case Complete():
                return [*self._close_text(), *self._complete(event.payload)]
            case Error():
                message = event.message or "The assistant failed."
                return [*self._close_text(), RunErrorEvent(message=message, code=event.code)]
            case ApprovalRequested() if event.tool in self._frontend:
                return self._frontend_call(event)
            case ApprovalRequested():
                return self._interrupt(event)
            case Cancelled():
                return [
                    *self._close_text(),
                    RunFinishedEvent(
                        thread_id=self.thread_id,
                        run_id=self.run_id,
                        outcome=RunFinishedCancelledOutcome(),
                    ),
                ]
            case Status() | ApprovalResolved():
                return []
            case ReasoningDelta():
                return self._reasoning(event.text)
            case ReplyParts():
                return self._reply_parts(event)
            case _:
                assert_never(event)

    def _is_resumed_call(self, event: RunEvent) -> bool:
        """The client's own call and result, which it holds already."""
        call = self._resumed_call
        if call is None:
            return False
        if isinstance(event, ToolStart):
            return event.tool_use_id == call
        if isinstance(event, ToolComplete):
            index = event.index
            return 0 <= index < len(self._tool_ids) and self._tool_ids[index] == call
        return False

    def _interrupt(self, event: ApprovalRequested) -> list[BaseEvent]:
        """AG-UI's own pause: resuming is a new run, as it is in pagechat (the decision route)."""
        expires_at = _TIME.dump_python(event.expires_at, mode="json")
        interrupt = Interrupt(
            id=event.approval_id,
            reason="tool_approval",
            message=event.reason,
            tool_call_id=event.tool_use_id,
            expires_at=expires_at,
            metadata={"tool": event.tool, "input": event.input},
        )
        # Also a CUSTOM event: a client that reads no interrupts (CopilotKit's older
        # runtimes) can still show the card and send the decision to pagechat's route.
        request = {
            "approval_id": event.approval_id,
            "tool": event.tool,
            "input": event.input,
            "reason": event.reason,
            "tool_use_id": event.tool_use_id,
            "expires_at": expires_at,
        }
        return [
            *self._close_text(),
            CustomEvent(name="pagechat.approval_requested", value=request),
            RunFinishedEvent(
                thread_id=self.thread_id,
                run_id=self.run_id,
                outcome=RunFinishedInterruptOutcome(interrupts=[interrupt]),
            ),
        ]

    def _frontend_call(self, event: ApprovalRequested) -> list[BaseEvent]:
        """The client runs this call: told as a tool call, and the run is over."""
        call_id = event.tool_use_id
        return [
            *self._tool_call(call_id, event.tool, event.input),
            RunFinishedEvent(
                thread_id=self.thread_id,
                run_id=self.run_id,
                result={
                    "conversation_id": event.conversation_id,
                    "message_id": event.message_id,
                    "waiting_for_tool_call": call_id,
                },
                outcome=RunFinishedSuccessOutcome(),
            ),
        ]

    def _text(self, text: str) -> list[BaseEvent]:
        text = TOOL_MARKER.sub("", text)
        if not text:
            return []
        events: list[BaseEvent] = []
        if self._text_id is None:
            self._text_id = _id()
            events.append(TextMessageStartEvent(message_id=self._text_id, role="assistant"))
        events.append(TextMessageContentEvent(message_id=self._text_id, delta=text))
        return events

    def _reasoning(self, text: str) -> list[BaseEvent]:
        """The reasoning as AG-UI's REASONING_* events: one reasoning message, apart from
        the answer's text, open until another kind of event comes."""
        events = self._close_text()
        if self._reasoning_id is None:
            self._reasoning_id = message_id = _id()
            events.append(ReasoningStartEvent(message_id=message_id))
            events.append(ReasoningMessageStartEvent(message_id=message_id, role="reasoning"))
        events.append(ReasoningMessageContentEvent(message_id=self._reasoning_id, delta=text))
        return events

    def _close_reasoning(self) -> list[BaseEvent]:
        if self._reasoning_id is None:
            return []
        message_id, self._reasoning_id = self._reasoning_id, None
        return [
            ReasoningMessageEndEvent(message_id=message_id),
            ReasoningEndEvent(message_id=message_id),
        ]

    def _close_text(self) -> list[BaseEvent]:
        if self._text_id is None:
            return []
        message_id, self._text_id = self._text_id, None
        return [TextMessageEndEvent(message_id=message_id)]

    def _tool_call(self, call_id: str, tool: str, input: dict[str, Any]) -> list[BaseEvent]:
        """The call as AG-UI tells one: the text before it ends, then start, args and end."""
        parent = self._text_id
        return [
            *self._close_text(),
            ToolCallStartEvent(tool_call_id=call_id, tool_call_name=tool, parent_message_id=parent),
            ToolCallArgsEvent(tool_call_id=call_id, delta=json.dumps(input or {})),
            ToolCallEndEvent(tool_call_id=call_id),
        ]

    def _payloads(self, payloads: list[dict[str, Any]]) -> list[BaseEvent]:
        """Each card as a CUSTOM event; those of a state key also as a STATE_DELTA."""
        events: list[BaseEvent] = [CustomEvent(name="pagechat.payload", value=p) for p in payloads]
        delta = [
            {"op": "add", "path": _pointer(self._state_keys[p["type"]]), "value": p.get("data")}
            for p in payloads
            if p.get("type") in self._state_keys
        ]
        if delta:
            events.append(StateDeltaEvent(delta=delta))
        return events

    def _reply_parts(self, event: ReplyParts) -> list[BaseEvent]:
        """The model's cards as they come, and its chips and actions so far (each CUSTOM
        event holds them all, as the end's does)."""
        payloads = [p.model_dump(mode="json") for p in event.payloads]
        self._told += payloads
        events = self._payloads(payloads)
        if event.suggested_values:
            self._values += [v.model_dump(mode="json") for v in event.suggested_values]
            events.append(CustomEvent(name="pagechat.suggested_values", value=list(self._values)))
        if event.suggested_actions:
            self._actions += [a.model_dump(mode="json") for a in event.suggested_actions]
            events.append(CustomEvent(name="pagechat.suggested_actions", value=list(self._actions)))
        return events

    def _complete(self, payload: ChatResponsePayload) -> list[BaseEvent]:
        told = list(self._told)
        unsent: list[dict[str, Any]] = []
        for p in (p.model_dump(mode="json") for p in payload.payloads):
            if p in told:
                told.remove(p)
            else:
                unsent.append(p)
        events = self._payloads(unsent)
        for key, items, sent in (
            ("suggested_values", payload.suggested_values, self._values),
            ("suggested_actions", payload.suggested_actions, self._actions),
        ):
            value = [item.model_dump(mode="json") for item in items or []]
            if value and value != sent:
                events.append(CustomEvent(name=f"pagechat.{key}", value=value))
        choices = [
            {
                "question": b.question,
                "options": [{"label": o.label, "value": o.value} for o in b.options],
            }
            for b in find_choice_blocks(payload.message)
            if b.valid
        ]
        if choices:
            events.append(CustomEvent(name="pagechat.choices", value=choices))
        if payload.sources:
            # The answer's numbered sources: its text's `[n]` cite them.
            value = [s.model_dump(mode="json") for s in payload.sources]
            events.append(CustomEvent(name="pagechat.sources", value=value))
        usage = payload.usage
        events.append(
            RunFinishedEvent(
                thread_id=self.thread_id,
                run_id=self.run_id,
                result={
                    "conversation_id": payload.conversation_id,
                    "message_id": payload.message_id,
                    "usage": None if usage is None else usage.model_dump(mode="json"),
                },
                outcome=RunFinishedSuccessOutcome(),
            )
        )
        return events
