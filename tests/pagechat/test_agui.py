"""AguiStream: a run's events told as AG-UI events, the same whether the run is in this
process (its typed events) or read from another worker's log (decoded from JSON)."""

from __future__ import annotations

import itertools
import json
import uuid
from typing import Any

import pytest
from ag_ui.core import Event
from pydantic import TypeAdapter

from pagechat.agui import AguiStream
from pagechat.events import (
    Complete,
    ReasoningDelta,
    ReplyParts,
    RunEvent,
    Status,
    TextDelta,
    decode_event,
)
from pagechat.protocol import ChatResponsePayload, CustomPayload, SuggestedValue
from pagechat.runs.log import encode_event
from tests.support.events import one_of_each_kind

_EVENT: TypeAdapter[Any] = TypeAdapter(Event)


class _Ids:
    def __init__(self) -> None:
        self._next = itertools.count()

    def __call__(self) -> uuid.UUID:
        return uuid.UUID(int=next(self._next))


def _told(events: list[RunEvent], *, decoded: bool, **kw: Any) -> bytes:
    stream = AguiStream(thread_id="t", run_id="r", state={"page": "x"}, **kw)
    out = stream.opening()
    for seq, event in enumerate(events, 1):
        out += stream.render(seq, decode_event(encode_event(event)) if decoded else event)
    return out


def _frames(data: bytes) -> list[dict[str, Any]]:
    events = [
        json.loads(line[6:]) for line in data.decode().split("\n") if line.startswith("data:")
    ]
    for event in events:
        _EVENT.validate_python(event)
    return events


@pytest.mark.parametrize("end", range(6, 10), ids=lambda i: one_of_each_kind()[i].kind)
def test_the_frames_are_the_same_for_typed_and_decoded_events(
    end: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = [*one_of_each_kind()[:6], one_of_each_kind()[end]]
    told = []
    for decoded in (False, True):
        monkeypatch.setattr(uuid, "uuid4", _Ids())
        told.append(_told(events, decoded=decoded, state_keys={"note": "notes"}))
    assert told[0] == told[1]
    assert _frames(told[0])[0]["type"] == "RUN_STARTED"


def test_text_is_one_message_without_tool_markers() -> None:
    events: list[RunEvent] = [TextDelta(text="a[[tool:0]]"), TextDelta(text="b")]
    frames = _frames(_told(events, decoded=False))
    assert [f["type"] for f in frames] == [
        "RUN_STARTED",
        "STATE_SNAPSHOT",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_CONTENT",
    ]
    assert "".join(f["delta"] for f in frames[3:]) == "ab"


def test_reasoning_is_one_reasoning_message_ended_before_the_text() -> None:
    events: list[RunEvent] = [
        Status(message="Thinking"),
        ReasoningDelta(text="Two and two "),
        ReasoningDelta(text="make four."),
        TextDelta(text="Four."),
    ]
    told = _frames(_told(events, decoded=True))
    frames = told[[f["type"] for f in told].index("REASONING_START") :]
    types = [f["type"] for f in frames]

    assert types == [
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_END",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
    ]
    assert len({f["messageId"] for f in frames[:6]}) == 1
    assert frames[1]["role"] == "reasoning"
    assert "".join(f["delta"] for f in frames[2:4]) == "Two and two make four."
    assert frames[6]["messageId"] != frames[0]["messageId"]


def test_the_answers_sources_are_a_custom_event_before_the_run_ends() -> None:
    kinds = one_of_each_kind()
    to_the_end = kinds[: next(i for i, e in enumerate(kinds) if isinstance(e, Complete)) + 1]
    frames = _frames(_told(to_the_end, decoded=True))

    [sources] = [f for f in frames if f.get("name") == "pagechat.sources"]
    assert [(s["number"], s["id"], s["url"]) for s in sources["value"]] == [
        (1, "11", "https://example.org/11"),
        (2, "SYN2", None),
    ]
    assert frames.index(sources) < [f["type"] for f in frames].index("RUN_FINISHED")


def test_the_models_card_and_chips_are_told_as_they_come_and_once() -> None:
    # Regression: told only at the end, a stopped or taken-over answer's client never had
    # them; told as they come, the end tells only the rest (here the tool's card).
    note = CustomPayload(type="note", data={"title": "x"})
    card = CustomPayload(type="facts", data={"n": 1})
    values = [SuggestedValue(label="more", value="more")]
    payload = ChatResponsePayload(message="Here.", payloads=[card, note], suggested_values=values)
    events: list[RunEvent] = [
        TextDelta(text="Here."),
        ReplyParts(payloads=[note], suggested_values=values),
        Complete(payload=payload),
    ]
    frames = _frames(_told(events, decoded=True, state_keys={"note": "notes"}))
    custom = [(f["name"], f["value"]) for f in frames if f["type"] == "CUSTOM"]
    assert custom == [
        ("pagechat.payload", note.model_dump(mode="json")),
        ("pagechat.suggested_values", [{"label": "more", "value": "more"}]),
        ("pagechat.payload", card.model_dump(mode="json")),
    ]
    (delta,) = [f for f in frames if f["type"] == "STATE_DELTA"]
    assert delta["delta"] == [{"op": "add", "path": "/notes", "value": {"title": "x"}}]
