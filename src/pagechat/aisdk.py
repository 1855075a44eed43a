"""The Vercel AI SDK's UI message stream: pagechat's events of a run, told as the parts a
`useChat` app reads (`ai`'s `DefaultChatTransport`).

A stream adapter (`pagechat.streams`), like AG-UI's: each typed event of the run's log
becomes the SDK's chunks, each one SSE `data:` line of JSON, in the same call (no JSON
round trip). The stream opens with `start` (pagechat's id of the answer as `messageId`,
the ids as message metadata) and `start-step`; text is `text-start`/`text-delta`/`text-end`
(the `[[tool:N]]` markers left out: the tool parts stand in their place); a tool call is
`tool-input-start`, `tool-input-delta` (its whole input as JSON) and `tool-input-available`,
its end `tool-output-available` or `tool-output-error`; a call that needs approval is the
SDK's `tool-approval-request` (its `approvalId` pagechat's approval id); a call of one of
the client's own tools ends the stream after its input, for `onToolCall`; progress,
payloads, suggestions and choices are `data-pagechat-*` parts (`protocol.AiSdkDataParts`).
The stream ends with `finish` (usage and `stop_reason` in the message metadata), `abort`
(stopped) or `error`, then `data: [DONE]`. docs/interop.md has the table.

A run that goes on with a paused turn (an approval decided, a client tool's result) first
replays the answer so far, which a client that sent the decision holds already: that is
left out, and the decided call's end is told on the call the client has. A reconnect
(`replay=True`) tells everything from the start, as the SDK's resumed stream expects.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from typing import Any, Literal, assert_never

import orjson

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
from .protocol import AI_SDK_DATA_PARTS, TOOL_MARKER, ChatResponsePayload, Source
from .runs.log import sse_frame
from .streams import UNSENDABLE, StreamAdapter

__all__ = ["DONE", "UI_MESSAGE_STREAM_HEADERS", "AiSdkStream", "Resumed"]

UI_MESSAGE_STREAM_HEADERS = {"x-vercel-ai-ui-message-stream": "v1"}
"""The header that says a response is a UI message stream (version 1)."""

DONE = b"data: [DONE]\n\n"
"""The stream's last frame."""

Resumed = Literal["approval", "frontend_tool"]
"""What resumed a paused turn: the user's decision, or the client's result of its tool."""

Chunk = dict[str, Any]

_PROGRESS = f"data-{AI_SDK_DATA_PARTS['progress']}"
_STATUS = f"data-{AI_SDK_DATA_PARTS['status']}"
_PAYLOAD = f"data-{AI_SDK_DATA_PARTS['payload']}"
_VALUES = f"data-{AI_SDK_DATA_PARTS['suggested_values']}"
_ACTIONS = f"data-{AI_SDK_DATA_PARTS['suggested_actions']}"
_CHOICES = f"data-{AI_SDK_DATA_PARTS['choices']}"


def _id() -> str:
    return uuid.uuid4().hex


class _Shown:
    """The model's cards, chips and actions a client was told before the answer's end
    (`reply_parts`), so the end tells only the rest."""

    def __init__(self) -> None:
        self.payloads: list[dict[str, Any]] = []
        self.values: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []
        self.count = 0
        """Payload parts told so far (their ids are `payload-<n>`)."""

    def add(self, event: ReplyParts) -> None:
        """`event` was told (or the client has it already)."""
        self.payloads += [p.model_dump(mode="json") for p in event.payloads]
        self.values += [v.model_dump(mode="json") for v in event.suggested_values]
        self.actions += [a.model_dump(mode="json") for a in event.suggested_actions]

    def unsent(self, payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The answer's payloads but those told as they came (each once)."""
        told = list(self.payloads)
        rest: list[dict[str, Any]] = []
        for payload in payloads:
            if payload in told:
                told.remove(payload)
            else:
                rest.append(payload)
        return rest


def _frames(chunks: list[Chunk]) -> bytes:
    return b"".join(sse_frame(orjson.dumps(c)) for c in chunks)


class AiSdkStream(StreamAdapter):
    """One run's events told as the AI SDK's UI message stream chunks."""

    def __init__(
        self,
        *,
        conversation_id: str | None,
        message_id: str | None = None,
        frontend_tools: Collection[str] = (),
        resumed: Resumed | None = None,
        resumed_call: str | None = None,
    ) -> None:
        self.conversation_id = conversation_id
        self.message_id = message_id
        self._frontend = frozenset(frontend_tools)
        self._resumed = resumed if resumed_call is not None else None
        self._resumed_call = resumed_call
        """The call whose decision or result resumed this run: the client has it."""
        self._replaying = self._resumed is not None
        self._output_told = self._resumed == "frontend_tool"
        self._next_is_resumed = False
        """The decision was told: the next call to start is the one decided."""
        """A resumed run first replays the answer so far, which the client has already."""
        self._text_id: str | None = None
        self._reasoning_id: str | None = None
        """The open `reasoning-*` part: any event but a reasoning delta ends it."""
        self._tool_ids: list[str] = []
        self._tool_names: dict[str, str] = {}
        self._sources_told: set[int] = set()
        """The numbers of the sources the client has (`source-*` parts), each told once."""
        self._opened = False
        self._ended = False
        self._shown = _Shown()
        """The model's cards, chips and actions told as they came (`reply_parts`)."""

    def opening(self) -> bytes:
        """`start` (the answer's id, and the ids as message metadata) and `start-step`."""
        start: Chunk = {"type": "start", "messageMetadata": self._metadata()}
        if self.message_id is not None:
            start["messageId"] = self.message_id
        self._opened = True
        return _frames([start, {"type": "start-step"}])

    def failed(self) -> bytes:
        """`error` and `[DONE]` (after `start` when the opening itself failed)."""
        if self._ended:
            return b""
        self._ended = True
        opened = [] if self._opened else [{"type": "start"}]
        return _frames([*opened, {"type": "error", "errorText": UNSENDABLE}]) + DONE

    def render(self, seq: int, event: RunEvent) -> bytes:
        chunks = self.translate(event)
        if not chunks:
            return b""
        frames = _frames(chunks)
        if chunks[-1]["type"] in ("finish", "abort", "error"):
            self._ended = True
            return frames + DONE
        return frames

    def translate(self, event: RunEvent) -> list[Chunk]:
        """The chunks that say what this pagechat event says (none for some)."""
        if self._replaying or self._told_already(event):
            return self._skip(event)
        if self._reasoning_id is not None and not isinstance(event, ReasoningDelta):
            reasoning_id, self._reasoning_id = self._reasoning_id, None
            return [{"type": "reasoning-end", "id": reasoning_id}, *self._chunks(event)]
        return self._chunks(event)

    def _chunks(self, event: RunEvent) -> list[Chunk]:
        match event:
            case TextDelta():
                return self._text(event.text)
            case ToolStart():
                call_id = event.tool_use_id or _id()
                self._tool_ids.append(call_id)
                self._tool_names[event.tool] = call_id
                return [*self._close_text(), *self._tool_input(call_id, event.tool, event.input)]
            case ToolUpdate():
                return [self._progress(event)]
            case ToolComplete():
                return [*self._tool_output(event), *self._sources(event.sources or ())]
            case Complete():
                return [*self._close_text(), *self._complete(event.payload)]
            case Error():
                message = event.message or "The assistant failed."
                return [*self._close_text(), {"type": "error", "errorText": message}]
            case ApprovalRequested():
                return self._paused(event)
            case Cancelled():
                return [*self._close_text(), {"type": "finish-step"}, {"type": "abort"}]
            case Status():
                return [{"type": _STATUS, "data": {"message": event.message}, "transient": True}]
            case ApprovalResolved():
                return []
            case ReasoningDelta():
                return self._reasoning(event.text)
            case ReplyParts():
                return self._reply_parts(event)
            case _:
                assert_never(event)

    # -- a resumed run ------------------------------------------------------------------

    def _told_already(self, event: RunEvent) -> bool:
        """The resumed call's start (the client shows its input), and its end when the
        client has that too: a client tool's result it sent, a denial told on its part."""
        call = self._resumed_call
        if call is None:
            return False
        if isinstance(event, ToolStart):
            return self._next_is_resumed
        if isinstance(event, ToolComplete) and self._output_told:
            return self._call_at(event.index) == call
        return False

    def _skip(self, event: RunEvent) -> list[Chunk]:
        """What a replayed or known event still says: calls are numbered on (`ToolComplete`
        names its call by index), and the decision ends the replay; a denied call ends as
        the SDK's denied part (the model reads the denial as the call's result).

        The first call after the decision is the one decided (the loop goes on from it):
        it is named by the client's id for it, so its progress and end reach the client's
        part even when the client rebuilt that part (after a reload) under another id."""
        if isinstance(event, ToolStart):
            call_id = event.tool_use_id or _id()
            if self._next_is_resumed and self._resumed_call is not None:
                call_id, self._next_is_resumed = self._resumed_call, False
            self._tool_ids.append(call_id)
            self._tool_names[event.tool] = call_id
        elif isinstance(event, ToolComplete):
            self._sources_told.update(s.number for s in event.sources or () if s.number)
        elif isinstance(event, ReplyParts):
            self._shown.add(event)  # the client has them from the paused run
            self._shown.count += len(event.payloads)
        elif isinstance(event, ApprovalResolved):
            self._replaying = False
            self._next_is_resumed = True
            if self._resumed == "approval" and event.status != "approved":
                self._output_told = True
                return [{"type": "tool-output-denied", "toolCallId": self._resumed_call}]
        return []

    # -- parts ----------------------------------------------------------------------------

    def _metadata(self, payload: ChatResponsePayload | None = None, **extra: Any) -> Chunk:
        # Every field of `AiSdkMessageMetadata`, so its generated guard holds on `start` too.
        metadata: Chunk = {
            "conversation_id": self.conversation_id,
            "message_id": self.message_id,
            "usage": None,
            "stop_reason": None,
        }
        if payload is not None:
            metadata["message_id"] = payload.message_id or self.message_id
            metadata["usage"] = None if payload.usage is None else payload.usage.model_dump()
            metadata["stop_reason"] = payload.stop_reason or "end_turn"
        metadata.update(extra)
        return metadata

    def _text(self, text: str) -> list[Chunk]:
        text = TOOL_MARKER.sub("", text)
        if not text:
            return []
        chunks: list[Chunk] = []
        if self._text_id is None:
            self._text_id = _id()
            chunks.append({"type": "text-start", "id": self._text_id})
        chunks.append({"type": "text-delta", "id": self._text_id, "delta": text})
        return chunks

    def _reasoning(self, text: str) -> list[Chunk]:
        """The reasoning as the SDK's `reasoning-*` parts, apart from the answer's text."""
        chunks = self._close_text()
        if self._reasoning_id is None:
            self._reasoning_id = _id()
            chunks.append({"type": "reasoning-start", "id": self._reasoning_id})
        chunks.append({"type": "reasoning-delta", "id": self._reasoning_id, "delta": text})
        return chunks

    def _close_text(self) -> list[Chunk]:
        if self._text_id is None:
            return []
        text_id, self._text_id = self._text_id, None
        return [{"type": "text-end", "id": text_id}]

    def _call_at(self, index: int) -> str | None:
        return self._tool_ids[index] if 0 <= index < len(self._tool_ids) else None

    @staticmethod
    def _tool_input(call_id: str, tool: str, input: dict[str, Any]) -> list[Chunk]:
        return [
            {"type": "tool-input-start", "toolCallId": call_id, "toolName": tool},
            {
                "type": "tool-input-delta",
                "toolCallId": call_id,
                "inputTextDelta": orjson.dumps(input or {}).decode(),
            },
            {
                "type": "tool-input-available",
                "toolCallId": call_id,
                "toolName": tool,
                "input": input or {},
            },
        ]

    def _tool_output(self, event: ToolComplete) -> list[Chunk]:
        call_id = self._call_at(event.index)
        if call_id is None:  # a call the client never saw start (the SDK would throw)
            return []
        if event.is_error:
            text = event.output or f"{event.tool} failed."
            return [{"type": "tool-output-error", "toolCallId": call_id, "errorText": text}]
        return [{"type": "tool-output-available", "toolCallId": call_id, "output": event.output}]

    def _sources(self, sources: Sequence[Source]) -> list[Chunk]:
        """The answer's sources as the SDK's `source-url` parts (`source-document` for one
        without a link), each once, its citation number in `providerMetadata.pagechat`."""
        chunks: list[Chunk] = []
        for source in sources:
            if source.number is None or source.number in self._sources_told:
                continue
            self._sources_told.add(source.number)
            meta = {"pagechat": source.model_dump(mode="json", exclude={"url"})}
            if source.url:
                chunks.append(
                    {
                        "type": "source-url",
                        "sourceId": source.id,
                        "url": source.url,
                        "title": source.title,
                        "providerMetadata": meta,
                    }
                )
            else:
                chunks.append(
                    {
                        "type": "source-document",
                        "sourceId": source.id,
                        "mediaType": "text/plain",
                        "title": source.title,
                        "providerMetadata": meta,
                    }
                )
        return chunks

    def _progress(self, event: ToolUpdate) -> Chunk:
        call_id = self._tool_names.get(event.tool, "")
        data = {
            "tool_call_id": call_id,
            "tool": event.tool,
            "stage": event.stage,
            "message": event.message,
            "progress": event.progress,
        }
        return {"type": _PROGRESS, "id": call_id or event.tool, "data": data}

    def _paused(self, event: ApprovalRequested) -> list[Chunk]:
        """The turn waits: for the user's decision (the SDK's approval request), or for the
        client to run its own tool (`onToolCall`). The stream ends either way."""
        call_id = event.tool_use_id
        chunks = [*self._close_text(), *self._tool_input(call_id, event.tool, event.input)]
        if event.tool not in self._frontend:
            request: Chunk = {
                "type": "tool-approval-request",
                "approvalId": event.approval_id,
                "toolCallId": call_id,
            }
            if event.reason:
                request["reason"] = event.reason
            chunks.append(request)
        metadata = self._metadata(message_id=event.message_id or self.message_id)
        metadata["stop_reason"] = "tool_calls"
        return [
            *chunks,
            {"type": "finish-step"},
            {"type": "finish", "finishReason": "tool-calls", "messageMetadata": metadata},
        ]

    def _payload_part(self, data: dict[str, Any]) -> Chunk:
        number = self._shown.count
        self._shown.count += 1
        return {"type": _PAYLOAD, "id": f"payload-{number}", "data": data}

    def _reply_parts(self, event: ReplyParts) -> list[Chunk]:
        """The model's cards as they come; its chips and actions so far (the same part,
        which `finish`'s replaces)."""
        chunks = [self._payload_part(p.model_dump(mode="json")) for p in event.payloads]
        self._shown.add(event)
        if event.suggested_values:
            values = self._shown.values
            chunks.append({"type": _VALUES, "id": "suggested-values", "data": {"values": values}})
        if event.suggested_actions:
            actions = self._shown.actions
            chunks.append(
                {"type": _ACTIONS, "id": "suggested-actions", "data": {"actions": actions}}
            )
        return chunks

    def _complete(self, payload: ChatResponsePayload) -> list[Chunk]:
        unsent = self._shown.unsent([p.model_dump(mode="json") for p in payload.payloads])
        chunks: list[Chunk] = [self._payload_part(p) for p in unsent]
        if payload.suggested_values:
            values = [v.model_dump(mode="json") for v in payload.suggested_values]
            chunks.append({"type": _VALUES, "id": "suggested-values", "data": {"values": values}})
        if payload.suggested_actions:
            actions = [a.model_dump(mode="json") for a in payload.suggested_actions]
            chunks.append(
                {"type": _ACTIONS, "id": "suggested-actions", "data": {"actions": actions}}
            )
        for i, block in enumerate(b for b in find_choice_blocks(payload.message) if b.valid):
            options = [{"label": o.label, "value": o.value} for o in block.options]
            data = {"question": block.question, "options": options}
            chunks.append({"type": _CHOICES, "id": f"choices-{i}", "data": data})
        reason = "length" if payload.stop_reason == "max_tokens" else "stop"
        return [
            *chunks,
            {"type": "finish-step"},
            {"type": "finish", "finishReason": reason, "messageMetadata": self._metadata(payload)},
        ]
