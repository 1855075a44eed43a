"""Notes: a pagechat app in one module — a page, one payload type, one tool.

    cd examples && pagechat serve --app notes.app:create_app

The assistant on the "notes" page saves notes with the `save_note` tool, or proposes
one by writing `NOTE: {...}`; either way the browser shows a note card.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, Field

from pagechat.chat.service import ModelSource
from pagechat.pages import PayloadConfig, register_page
from pagechat.server import create_app_from_settings
from pagechat.settings import Settings
from pagechat.tools import ToolConfig, ToolContext, ToolResult

__all__ = ["NOTES", "Note", "create_app"]


class Note(BaseModel):
    """The note card's data; its JSON Schema checks the model's input and output, and
    web/src/notes/payloads.gen.ts is generated from it."""

    title: str = Field(min_length=1, max_length=120)
    body: str = Field(default="", max_length=4000)


# In memory to stay small; a real app writes through ToolContext.session.
NOTES: defaultdict[str, list[Note]] = defaultdict(list)


def save_note(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    note = Note.model_validate(params)
    saved = NOTES[ctx.user_id or ""]
    saved.append(note)
    return ToolResult(
        f"Saved as note {len(saved)}.", payload={"type": "note", "data": note.model_dump()}
    )


def create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    """The app factory `pagechat serve --app` calls (settings None: from the environment)."""
    schema = Note.model_json_schema()
    register_page(
        "notes",
        instructions="You help the user keep short notes. Save one only when they ask.",
        payloads=[
            PayloadConfig(
                type="note",
                parse_marker="NOTE:",
                llm_instructions='Propose one as NOTE: {"title": .., "body": ..}',
                schema=schema,
            )
        ],
        tools=[
            ToolConfig(
                name="save_note",
                description="Save a note for the user.",
                input_schema=schema,
                executor=save_note,
            )
        ],
    )
    return create_app_from_settings(settings, model=model)
