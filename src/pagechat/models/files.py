"""What a provider says about a user's file when it cannot send the file itself.

Shared by the providers: a file's text wrapped so the model knows where it starts and
ends and what it is called, the note of what was cut, and the notice that takes an
image's place for a model that reads no images.
"""

from __future__ import annotations

import base64

from .base import FilePart

__all__ = ["as_text", "base64_of", "image_notice"]


def _quoted(name: str) -> str:
    return name.replace('"', "'")


def as_text(part: FilePart) -> str:
    """A text file's (or a PDF's extracted) text, wrapped with its name and any note."""
    note = f"\n[{part.note}]" if part.note else ""
    return (
        f'<file name="{_quoted(part.name)}" type="{part.media_type}">\n{part.text}{note}\n</file>'
    )


def image_notice(part: FilePart) -> str:
    """What a model without image input reads in an image's place."""
    return (
        f'[The user attached an image, "{_quoted(part.name)}", which this model cannot see. '
        "Say so if the question depends on it.]"
    )


def base64_of(data: bytes) -> str:
    """The bytes as base64 text, as the APIs take them."""
    return base64.b64encode(data).decode("ascii")
