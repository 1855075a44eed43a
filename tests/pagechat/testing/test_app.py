"""running_app: an app's pages and global tools are its own for as long as it runs."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from pagechat.pages import register_page
from pagechat.server import create_app_from_settings
from pagechat.settings import Settings
from pagechat.testing import LiveApp, running_app
from pagechat.tools import ToolConfig, ToolContext, ToolResult, get_tool, register_tool


async def _echo(data: dict[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult(text=str(data))


def _leaky_app(settings: Settings | None = None, *, model: Any = None) -> FastAPI:
    register_page("leaky", instructions="A page only this app has.")
    register_tool(
        ToolConfig(
            name="leaky_tool",
            description="A tool only this app has.",
            input_schema={"type": "object"},
            executor=_echo,
        )
    )
    return create_app_from_settings(settings, model=model)


async def _pages(app: LiveApp) -> list[str]:
    answer = await app.http.get("/api/pages", headers=app.account.headers)
    assert answer.status_code == 200
    pages: list[str] = answer.json()["pages"]
    return pages


async def test_running_app_leaks_no_registrations_into_later_apps() -> None:
    # What modules imported earlier in this process registered (Horizon's pages, when its
    # tests ran first) is the baseline: the leak would be "leaky" staying after the app.
    async with running_app() as earlier:
        baseline = await _pages(earlier)
    async with running_app(_leaky_app) as first:
        assert await _pages(first) == sorted([*baseline, "leaky"])
        assert get_tool("leaky_tool") is not None
    async with running_app() as later:
        assert await _pages(later) == baseline
        assert get_tool("leaky_tool") is None
        turn = await later.client.chat("hi", page="leaky")
        assert turn.status_code == 400


async def test_an_app_built_again_has_the_pages_its_modules_registered_on_import() -> None:
    async with running_app("horizon.app:create_app") as first:
        pages = await _pages(first)
    async with running_app("horizon.app:create_app") as again:
        assert await _pages(again) == pages
    assert "streams" in pages
