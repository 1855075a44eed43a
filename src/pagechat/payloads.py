"""Payload data as pydantic models: the type name declared once, on the model.

    class Note(Payload):
        payload_type = "note"
        title: str

A tool returns a `Note` (or puts one in `ToolResult.payload`) and the page offers it
with `PayloadConfig.for_model(Note, marker="NOTE:", instructions=...)`: the type name
and the JSON Schema both come from the class. Nothing here depends on the rest of
pagechat, so tools and pages alike build on it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

__all__ = ["Payload", "model_schema"]


class _Untitled(GenerateJsonSchema):
    """pydantic's JSON Schema without the titles it makes up from names: they validate
    nothing and only lengthen what the model reads. Titles set by hand stay."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        json_schema = super().model_schema(schema)
        json_schema.pop("title", None)
        return json_schema


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of `model` as pagechat hands it to an LLM: pydantic's, in
    validation mode, without generated titles (`$defs` and defaults kept)."""
    return model.model_json_schema(schema_generator=_Untitled)


class Payload(BaseModel):
    """Base class of a payload's data: `payload_type` (a class variable) names its type.

    A subclass that neither declares nor inherits a non-empty `payload_type` is an error
    when the class is created, so a misspelt payload fails at import.
    """

    payload_type: ClassVar[str]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        declared = getattr(cls, "payload_type", None)
        if not isinstance(declared, str) or not declared:
            raise TypeError(
                f"{cls.__qualname__} needs a payload_type: a class variable naming its "
                'payload type, e.g. payload_type = "note"'
            )

    @classmethod
    def payload_schema(cls) -> dict[str, Any]:
        """The JSON Schema of the data: what markers and tool payloads are checked against."""
        return model_schema(cls)

    def as_payload(self) -> dict[str, Any]:
        """This data as a payload, `{"type": payload_type, "data": <its JSON>}`."""
        return {"type": self.payload_type, "data": self.model_dump(mode="json", by_alias=True)}
