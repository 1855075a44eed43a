"""AG-UI: pagechat's events of a run, told as the AG-UI protocol's events.

An AG-UI client (CopilotKit, `@ag-ui/client`) sends a `RunAgentInput` and reads
a stream of AG-UI events. The run behind it is an ordinary pagechat run —
stored, stoppable, with the page context — and `AguiTranslator` turns each of
its events into the AG-UI events that say the same thing:

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
import re
import uuid
from collections.abc import Collection, Mapping
from typing import Any

from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    Interrupt,
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

from .pages.choices import find_choice_blocks

__all__ = ["AguiTranslator", "conversation_for_thread"]

_MARKER = re.compile(r"\[\[tool:\d+\]\]")


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


class AguiTranslator:
    """Turns one run's pagechat events into AG-UI events, keeping the ids they share."""

    def __init__(
        self,
        *,
        thread_id: str,
        run_id: str,
        frontend_tools: Collection[str] = (),
        resumed_call: str | None = None,
        state_keys: Mapping[str, str] | None = None,
    ) -> None:
        self.thread_id = thread_id
        self.run_id = run_id
        self._text_id: str | None = None
        self._tool_ids: list[str] = []
        self.finished = False
        self._frontend = frozenset(frontend_tools)
        self._resumed_call = resumed_call
        """The frontend tool call whose result (from the client) resumed this run."""
        self._replaying = resumed_call is not None
        """A resumed run first replays the answer so far, which the client has already."""
        self._state_keys = dict(state_keys or {})

    def start(self, state: Any) -> list[BaseEvent]:
        """The events that open the AG-UI stream: RUN_STARTED and the state snapshot."""
        return [
            RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id),
            StateSnapshotEvent(snapshot=state if state is not None else {}),
        ]

    def translate(self, event: dict[str, Any]) -> list[BaseEvent]:
        """The AG-UI events that say what this pagechat event says (none for some)."""
        kind = event.get("type")
        if self._replaying or self._is_resumed_call(event):
            if kind == "tool_start":  # numbered still: tool_complete names calls by index
                self._tool_ids.append(str(event.get("tool_use_id") or _id()))
            elif kind == "approval_resolved":
                self._replaying = False
            return []
        if kind == "text_delta":
            return self._text(str(event.get("text", "")))
        if kind == "tool_start":
            return self._tool_start(event)
        if kind == "tool_progress":
            value = {k: event.get(k) for k in ("tool", "stage", "message", "progress")}
            return [CustomEvent(name="pagechat.tool_progress", value=value)]
        if kind == "tool_complete":
            index = int(event.get("index", -1))
            call_id = self._tool_ids[index] if 0 <= index < len(self._tool_ids) else _id()
            return [
                ToolCallResultEvent(
                    message_id=_id(), tool_call_id=call_id, content=str(event.get("output", ""))
                )
            ]
        if kind == "complete":
            return [*self._close_text(), *self._complete(event.get("payload") or {})]
        if kind == "error":
            self.finished = True
            message = str(event.get("message") or "The assistant failed.")
            code = event.get("code")
            return [*self._close_text(), RunErrorEvent(message=message, code=code)]
        if kind == "approval_requested" and event.get("tool") in self._frontend:
            return self._frontend_call(event)
        if kind == "approval_requested":
            # AG-UI's own pause: resuming is a new run, as it is in pagechat (the decision route).
            self.finished = True
            interrupt = Interrupt(
                id=str(event.get("approval_id", "")),
                reason="tool_approval",
                message=str(event.get("reason") or ""),
                tool_call_id=event.get("tool_use_id"),
                expires_at=event.get("expires_at"),
                metadata={"tool": event.get("tool"), "input": event.get("input") or {}},
            )
            # Also a CUSTOM event: a client that reads no interrupts (CopilotKit's older
            # runtimes) can still show the card and send the decision to pagechat's route.
            request = {
                key: event.get(key)
                for key in ("approval_id", "tool", "input", "reason", "tool_use_id", "expires_at")
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
        if kind == "cancelled":
            self.finished = True
            return [
                *self._close_text(),
                RunFinishedEvent(
                    thread_id=self.thread_id,
                    run_id=self.run_id,
                    outcome=RunFinishedCancelledOutcome(),
                ),
            ]
        return []

    def _is_resumed_call(self, event: dict[str, Any]) -> bool:
        """The client's own call and result, which it holds already."""
        call = self._resumed_call
        if call is None:
            return False
        if event.get("type") == "tool_start":
            return event.get("tool_use_id") == call
        if event.get("type") == "tool_complete":
            index = int(event.get("index", -1))
            return 0 <= index < len(self._tool_ids) and self._tool_ids[index] == call
        return False

    def _frontend_call(self, event: dict[str, Any]) -> list[BaseEvent]:
        """The client runs this call: told as a tool call, and the run is over."""
        self.finished = True
        call_id = str(event.get("tool_use_id") or "")
        return [
            *self._tool_call(call_id, event),
            RunFinishedEvent(
                thread_id=self.thread_id,
                run_id=self.run_id,
                result={
                    "conversation_id": event.get("conversation_id"),
                    "message_id": event.get("message_id"),
                    "waiting_for_tool_call": call_id,
                },
                outcome=RunFinishedSuccessOutcome(),
            ),
        ]

    def _text(self, text: str) -> list[BaseEvent]:
        text = _MARKER.sub("", text)
        if not text:
            return []
        events: list[BaseEvent] = []
        if self._text_id is None:
            self._text_id = _id()
            events.append(TextMessageStartEvent(message_id=self._text_id, role="assistant"))
        events.append(TextMessageContentEvent(message_id=self._text_id, delta=text))
        return events

    def _close_text(self) -> list[BaseEvent]:
        if self._text_id is None:
            return []
        message_id, self._text_id = self._text_id, None
        return [TextMessageEndEvent(message_id=message_id)]

    def _tool_start(self, event: dict[str, Any]) -> list[BaseEvent]:
        call_id = str(event.get("tool_use_id") or _id())
        self._tool_ids.append(call_id)
        return self._tool_call(call_id, event)

    def _tool_call(self, call_id: str, event: dict[str, Any]) -> list[BaseEvent]:
        """The call as AG-UI tells one: the text before it ends, then start, args and end."""
        parent = self._text_id
        return [
            *self._close_text(),
            ToolCallStartEvent(
                tool_call_id=call_id,
                tool_call_name=str(event.get("tool", "")),
                parent_message_id=parent,
            ),
            ToolCallArgsEvent(tool_call_id=call_id, delta=json.dumps(event.get("input") or {})),
            ToolCallEndEvent(tool_call_id=call_id),
        ]

    def _complete(self, payload: dict[str, Any]) -> list[BaseEvent]:
        self.finished = True
        payloads = [p for p in payload.get("payloads") or [] if isinstance(p, dict)]
        events: list[BaseEvent] = [CustomEvent(name="pagechat.payload", value=p) for p in payloads]
        delta = [
            {"op": "add", "path": _pointer(self._state_keys[p["type"]]), "value": p.get("data")}
            for p in payloads
            if p.get("type") in self._state_keys
        ]
        if delta:
            events.append(StateDeltaEvent(delta=delta))
        for key in ("suggested_values", "suggested_actions"):
            if payload.get(key):
                events.append(CustomEvent(name=f"pagechat.{key}", value=payload[key]))
        choices = [
            {
                "question": b.question,
                "options": [{"label": o.label, "value": o.value} for o in b.options],
            }
            for b in find_choice_blocks(str(payload.get("message", "")))
            if b.valid
        ]
        if choices:
            events.append(CustomEvent(name="pagechat.choices", value=choices))
        events.append(
            RunFinishedEvent(
                thread_id=self.thread_id,
                run_id=self.run_id,
                result={
                    "conversation_id": payload.get("conversation_id"),
                    "message_id": payload.get("message_id"),
                    "usage": payload.get("usage"),
                },
                outcome=RunFinishedSuccessOutcome(),
            )
        )
        return events
