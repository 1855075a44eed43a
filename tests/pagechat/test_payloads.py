"""Payload models: the type name declared once, on the class, and the data's schema."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import Field

from pagechat.payloads import Payload


class Note(Payload):
    """A note card."""

    payload_type = "note"

    title: str = Field(min_length=1)
    due: date | None = Field(default=None, alias="dueDate")


def test_a_payload_without_a_type_fails_when_its_class_is_made() -> None:
    with pytest.raises(TypeError, match="Untyped needs a payload_type"):

        class Untyped(Payload):
            title: str


def test_an_empty_payload_type_fails_too() -> None:
    with pytest.raises(TypeError, match="needs a payload_type"):

        class Empty(Payload):
            payload_type = ""


def test_a_subclass_keeps_the_type_it_inherits() -> None:
    class Pinned(Note):
        pinned: bool = True

    assert Pinned(title="x").as_payload()["type"] == "note"


def test_as_payload_is_the_type_and_the_json_data_by_alias() -> None:
    note = Note(title="Call Ana", dueDate=date(2026, 12, 1))

    assert note.as_payload() == {
        "type": "note",
        "data": {"title": "Call Ana", "dueDate": "2026-12-01"},
    }


def test_the_payload_schema_is_the_datas_without_made_up_titles() -> None:
    assert Note.payload_schema() == {
        "description": "A note card.",
        "type": "object",
        "properties": {
            "title": {"type": "string", "minLength": 1},
            "dueDate": {
                "anyOf": [{"type": "string", "format": "date"}, {"type": "null"}],
                "default": None,
            },
        },
        "required": ["title"],
    }
