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
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
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


class AguiTranslator:
    def __init__(self, *, thread_id: str, run_id: str) -> None:
        self.thread_id = thread_id
        self.run_id = run_id
        self._text_id: str | None = None
        self._tool_ids: list[str] = []
        self.finished = False

    def start(self, state: Any) -> list[BaseEvent]:
        return [
            RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id),
            StateSnapshotEvent(snapshot=state if state is not None else {}),
        ]

    def translate(self, event: dict[str, Any]) -> list[BaseEvent]:
        kind = event.get("type")
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
            return [
                *self._close_text(),
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
        parent = self._text_id
        events = self._close_text()
        call_id = str(event.get("tool_use_id") or _id())
        self._tool_ids.append(call_id)
        events += [
            ToolCallStartEvent(
                tool_call_id=call_id,
                tool_call_name=str(event.get("tool", "")),
                parent_message_id=parent,
            ),
            ToolCallArgsEvent(tool_call_id=call_id, delta=json.dumps(event.get("input") or {})),
            ToolCallEndEvent(tool_call_id=call_id),
        ]
        return events

    def _complete(self, payload: dict[str, Any]) -> list[BaseEvent]:
        self.finished = True
        events: list[BaseEvent] = [
            CustomEvent(name="pagechat.payload", value=p) for p in payload.get("payloads") or []
        ]
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
