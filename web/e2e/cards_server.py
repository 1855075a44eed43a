"""An app the shell has no screens for (e2e/recipes_app.py) for the schema card's browser test.

Run with the project's Python: `../.venv/bin/python e2e/cards_server.py --static dist`.
It prints `PORT <n>` once it listens on 127.0.0.1 and stops on SIGTERM. The account is
cards@example.com with pagechat.testing's TEST_PASSWORD; the model finds a recipe with the
recipes page's own tool (so it fails unless the tray names that page), then says so.
"""

from __future__ import annotations

import asyncio

from app_server import serve_app, static_dir

from pagechat.models import ModelRequest, ScriptItem
from pagechat.models.base import ToolResultsTurn
from pagechat.testing import FunctionModel, tool_call


def _reply(request: ModelRequest) -> list[ScriptItem]:
    if isinstance(request.messages[-1], ToolResultsTurn):
        return ["Here is a recipe."]
    return [tool_call("find_recipe", {"query": "pancakes"})]


if __name__ == "__main__":
    asyncio.run(
        serve_app(
            "recipes_app:create_app",
            model=FunctionModel(_reply),
            static=static_dir(),
            email="cards@example.com",
        )
    )
