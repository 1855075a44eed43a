"""The model's instructions for one payload: when, what shape, and a valid example."""

from __future__ import annotations

from ..payloads import PayloadShape


def payload_instructions(shape: PayloadShape, *, when: str, fields: str) -> str:
    """Instructions ending in the shape's example, written exactly as the model should."""
    return (
        f"When: {when.strip()}\n"
        f"How: write `{shape.marker}` at the start of a line, then the JSON on the same line. "
        "Write one short sentence before it; do not repeat its content as text.\n"
        f"Fields:\n{fields.strip()}\n"
        f"Example:\n{shape.line(shape.example)}"
    )
