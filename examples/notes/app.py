"""Notes: a pagechat app in one module — a page, one payload type, one tool.

    cd examples && pagechat serve --app notes.app:create_app

The assistant on the "notes" page saves notes with the `save_note` tool, or proposes
one by writing `NOTE: {...}`; either way the browser shows a note card.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Annotated

from fastapi import FastAPI
from pydantic import Field

from pagechat.pages import PayloadConfig, register_page
from pagechat.payloads import Payload
from pagechat.server import ModelSource, create_app_from_settings
from pagechat.settings import Settings
from pagechat.tools import ToolContext, tool

__all__ = ["NOTES", "Note", "create_app", "save_note"]

Title = Annotated[str, Field(min_length=1, max_length=120)]
Body = Annotated[str, Field(max_length=4000)]


class Note(Payload):
    """The note card's data; its JSON Schema checks the model's input and output, and
    web/src/notes/payloads.gen.ts is generated from it."""

    payload_type = "note"

    title: Title
    body: Body = ""


# In memory to stay small; a real app writes through ToolContext.session.
NOTES: defaultdict[str, list[Note]] = defaultdict(list)


@tool
def save_note(
    title: Annotated[Title, Field(description="A few words naming the note.")],
    ctx: ToolContext,
    body: Body = "",
) -> Note:
    """Save a note for the user."""
    note = Note(title=title, body=body)
    NOTES[ctx.user_id or ""].append(note)
    return note


def create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    """The app factory `pagechat serve --app` calls (settings None: from the environment)."""
    register_page(
        "notes",
        instructions="You help the user keep short notes. Save one only when they ask.",
        payloads=[
            PayloadConfig.for_model(
                Note, marker="NOTE:", instructions='Propose one as NOTE: {"title": .., "body": ..}'
            )
        ],
        tools=[save_note],
    )
    return create_app_from_settings(settings, model=model)
