"""The one vocabulary of events: typed, keyword-only, named by `kind`, and the same fields
as the wire contract's models (protocol.py), to which each goes and comes back unchanged."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from pagechat.agent import AgentEvent
from pagechat.events import (
    RunEvent,
    TextDelta,
    decode_event,
    from_wire,
    to_wire,
)
from pagechat.models import ModelEvent
from pagechat.protocol import StreamEvent
from pagechat.runs.log import encode_event
from tests.support.events import one_of_each_kind


def _kind(cls: Any) -> str:
    (field,) = [f for f in dataclasses.fields(cls) if f.name == "kind"]
    assert isinstance(field.default, str)
    return field.default


def _wire_models() -> dict[str, type[BaseModel]]:
    union = get_args(StreamEvent)[0]
    return {m.model_fields["type"].default: m for m in get_args(union)}


def test_every_kind_has_its_wire_model_with_the_same_fields() -> None:
    wire = _wire_models()
    classes = {_kind(cls): cls for cls in get_args(RunEvent)}

    assert classes.keys() == wire.keys()
    for kind, cls in classes.items():
        fields = {f.name for f in dataclasses.fields(cls)} - {"kind"}
        assert fields == set(wire[kind].model_fields) - {"type"}, kind


def test_the_samples_hold_one_event_of_every_kind() -> None:
    kinds = [event.kind for event in one_of_each_kind()]
    assert sorted(kinds) == sorted(_kind(cls) for cls in get_args(RunEvent))


@pytest.mark.parametrize("event", one_of_each_kind(), ids=lambda e: e.kind)
def test_an_event_goes_to_the_wire_and_back_unchanged(event: RunEvent) -> None:
    assert to_wire(event).type == event.kind
    assert from_wire(to_wire(event)) == event
    assert decode_event(encode_event(event)) == event
    assert encode_event(event) == to_wire(event).model_dump_json().encode()


def test_every_event_of_the_family_is_frozen_keyword_only_and_named_once() -> None:
    family = {*get_args(RunEvent), *get_args(AgentEvent), *get_args(ModelEvent)}
    kinds = [_kind(cls) for cls in family]

    assert len(kinds) == len(set(kinds))
    for cls in family:
        params = cls.__dataclass_params__
        assert params.frozen and cls.__dataclass_fields__["kind"].kw_only, cls
        assert all(f.kw_only for f in dataclasses.fields(cls)), cls
    with pytest.raises(TypeError):
        TextDelta("positional")  # type: ignore[call-arg, arg-type]


def test_a_text_delta_is_decoded_without_its_wire_model() -> None:
    data = encode_event(TextDelta(text='say "hi"\n'))
    assert data.startswith(b'{"type":"text_delta","text":')
    assert decode_event(data) == TextDelta(text='say "hi"\n')
    assert decode_event(data.decode()) == TextDelta(text='say "hi"\n')
