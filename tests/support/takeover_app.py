"""An app for takeover tests: two global tools that count their runs in a file.

`lookup` reads (safe to repeat) and returns a card (`LOOKUP_CARD`); `write_note` writes and takes
`TAKEOVER_TOOL_SECONDS` (3) to do it, so a test can kill its worker meanwhile. Each call
appends its tool's name to the file `TAKEOVER_TOOL_LOG` as it starts. The page `notes`
offers a card the model writes (`NOTE_CARD: {...}`, tests/support/numbered.py's `card`).
"""

from __future__ import annotations

import asyncio
import os

from fastapi import FastAPI

from pagechat.pages import PayloadConfig, register_page
from pagechat.server import ModelSource, create_app_from_settings
from pagechat.settings import Settings
from pagechat.tools import ToolResult, register_tool, tool

__all__ = ["LOOKUP_CARD", "create_app", "lookup", "write_note"]

LOOKUP_CARD = {"type": "facts", "data": {"topic": "x", "facts": ["one", "two"]}}
"""The card `lookup` returns (for the topic "x")."""


def _count(name: str) -> None:
    with open(os.environ["TAKEOVER_TOOL_LOG"], "a", encoding="utf-8") as log:
        log.write(name + "\n")


@tool(safe_to_repeat=True)
def lookup(topic: str) -> ToolResult:
    """Look a topic up."""
    _count("lookup")
    card = {**LOOKUP_CARD, "data": {**LOOKUP_CARD["data"], "topic": topic}}  # type: ignore[dict-item]
    return ToolResult(f"facts about {topic}", payload=card)


@tool
async def write_note(title: str) -> str:
    """Write a note."""
    _count("write_note")
    await asyncio.sleep(float(os.environ.get("TAKEOVER_TOOL_SECONDS", "3")))
    return f"saved {title}"


def create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    """The app factory `pagechat serve --app` calls."""
    register_tool(lookup)
    register_tool(write_note)
    note = PayloadConfig(type="note", parse_marker="NOTE_CARD:", llm_instructions="A note.")
    register_page("notes", payloads=[note])
    return create_app_from_settings(settings, model=model)
