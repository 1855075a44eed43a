"""pagechat behind the AI SDK example (web/examples/ai-sdk), for its browser test.

Run with the project's Python: `../.venv/bin/python e2e/ai_sdk_server.py --static
examples/ai-sdk/dist`. It prints `PORT <n>` once it listens on 127.0.0.1 and stops on
SIGTERM. The account is ai-sdk@example.com with pagechat.testing's TEST_PASSWORD. The
`desk` page has a payload (`ENTRY:`), a tool with progress, and one that needs approval.
The model's reply depends on a word of the last user message:

  search    a tool call with progress and its output, then text
  entry     a model-written payload (a typed data part), with suggested values
  delete N  a call of `delete_item`, which needs the user's approval; then what came of it
  title     a call of `read_title`, the app's own tool (run in the browser); then its output
  long      a slow answer (Stop, reload and resume)
  anything else: an echo

GET /__e2e__/upstream says how many model requests were opened and how many were closed
before their end (Stop closes the upstream request).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from app_server import serve_app, static_dir
from fastapi import APIRouter, FastAPI

from pagechat.models import ModelRequest, Pause, ScriptItem, tool_call
from pagechat.models.base import ToolResultsTurn, UserTurn
from pagechat.pages import PayloadConfig, register_page
from pagechat.server import ModelSource, create_app_from_settings
from pagechat.settings import Settings
from pagechat.testing import FunctionModel
from pagechat.tools import ToolConfig, ToolContext, ToolProgress, ToolResult

UPSTREAM = {"opened": 0, "closed_early": 0}
"""The model requests this server's model answered, and those closed before their end."""


async def _search(params: dict[str, Any], _ctx: ToolContext) -> AsyncIterator[Any]:
    yield ToolProgress(stage="searching", message="Searching the archive", progress=0.5)
    await asyncio.sleep(0.3)
    yield ToolResult(f"3 results for {params['query']}")


def _delete(params: dict[str, Any], _ctx: ToolContext) -> str:
    return f"Deleted item {params['id']}."


def _last(request: ModelRequest) -> tuple[str, ToolResultsTurn | None]:
    for i in range(len(request.messages) - 1, -1, -1):
        message = request.messages[i]
        if isinstance(message, UserTurn):
            after = [m for m in request.messages[i + 1 :] if isinstance(m, ToolResultsTurn)]
            return message.text.lower(), (after[-1] if after else None)
    return "", None


def _script(request: ModelRequest) -> list[ScriptItem]:
    text, results = _last(request)
    if "search" in text:
        if results is not None:
            return ["The archive has 3 results."]
        return ["Searching.", tool_call("search_archive", {"query": "invoices"})]
    if "entry" in text:
        entry = {"title": "Office rent", "amount": 1200}
        values = [{"label": "Book it", "value": "yes, book it"}]
        return [
            "Here is the entry.\n\nENTRY: ",
            json.dumps(entry),
            f"\nSUGGESTED_VALUES: {json.dumps(values)}",
        ]
    found = re.search(r"delete (\d+)", text)
    if found:
        if results is not None:
            result = results.results[-1]
            return [f"Kept item {found.group(1)}." if result.is_error else "It is gone."]
        return ["Deleting.", tool_call("delete_item", {"id": int(found.group(1))})]
    if "title" in text:
        if results is not None:
            return [f"The page is called {results.results[-1].content}."]
        return ["Reading the title.", tool_call("read_title", {})]
    if "long" in text:
        items: list[ScriptItem] = []
        for i in range(1, 200):
            items += [f"Word {i}. ", Pause(0.05)]
        return items
    return [f"You said: {text}"]


async def _reply(request: ModelRequest) -> AsyncIterator[ScriptItem]:
    UPSTREAM["opened"] += 1
    finished = False
    try:
        for item in _script(request):
            yield item
        finished = True
    finally:
        if not finished:
            UPSTREAM["closed_early"] += 1


def create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    """Plain pagechat with the `desk` page, its payload and tools."""
    register_page(
        "desk",
        payloads=[
            PayloadConfig(
                type="entry",
                parse_marker="ENTRY:",
                llm_instructions="Propose a ledger entry as ENTRY: {json}.",
                schema={"type": "object", "required": ["title", "amount"]},
            )
        ],
        tools=[
            ToolConfig(
                name="search_archive",
                description="Search the archive.",
                input_schema={
                    "type": "object",
                    "properties": {"query": {"type": "string"}},
                    "required": ["query"],
                },
                executor=_search,
            ),
            ToolConfig(
                name="delete_item",
                description="Delete an item. It cannot be undone.",
                input_schema={
                    "type": "object",
                    "properties": {"id": {"type": "integer"}},
                    "required": ["id"],
                },
                executor=_delete,
                requires_approval=True,
                approval_reason="Deleting cannot be undone.",
            ),
        ],
    )
    return create_app_from_settings(settings, model=model, routers=[_E2E])


_E2E = APIRouter()


@_E2E.get("/__e2e__/upstream")
async def _upstream() -> dict[str, int]:
    return dict(UPSTREAM)


if __name__ == "__main__":
    asyncio.run(
        serve_app(
            create_app, model=FunctionModel(_reply), static=static_dir(), email="ai-sdk@example.com"
        )
    )
