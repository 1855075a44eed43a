"""`pagechat mcp serve`: an app's tools for MCP clients, driven by the SDK's own client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

ROOT = Path(__file__).resolve().parents[3]
PAGECHAT = str(Path(sys.executable).with_name("pagechat"))
APP = "tests.pagechat.mcp.mcp_app:create_app"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        # This checkout's code first, whichever checkout the environment installed.
        "PYTHONPATH": os.pathsep.join(str(ROOT / p) for p in ("src", "apps/horizon/src", "")),
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/mcp.db",
        "PAGECHAT_STATE_DIR": str(tmp_path / "state"),
        "PAGECHAT_PROVIDER": "offline",
    }


def _text(result: CallToolResult) -> str:
    (block,) = result.content
    assert isinstance(block, TextContent)
    return block.text


def _server(env: dict[str, str], *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=PAGECHAT, args=["mcp", "serve", "--app", APP, *extra], env=env, cwd=str(ROOT)
    )


async def test_an_mcp_client_lists_and_calls_the_apps_tools(env: dict[str, str]) -> None:
    reported: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reported.append((progress, total, message))

    async with Client(_server(env)) as client:
        listing = await client.list_tools()
        shouted = await client.call_tool("shout", {"text": "hello"}, progress_callback=on_progress)
        invalid = await client.call_tool("shout", {"text": 42})
        unknown = await client.call_tool("secret", {})

    names = {t.name for t in listing.tools}
    assert "shout" in names and "secret" not in names, "admin-only tools need an admin account"
    shout = next(t for t in listing.tools if t.name == "shout")
    assert shout.input_schema["required"] == ["text"]
    assert shouted.is_error is False
    # Its sources after its text, numbered as a model citing them would read them.
    assert _text(shouted) == (
        "HELLO! (asked by someone)\n\n"
        "Sources (cite a statement that uses one as [n], its number here):\n"
        "[1] How to shout. https://example.org/shout"
    )
    assert reported == [(0.5, 1.0, "Taking a breath")]
    assert invalid.is_error and "Invalid input for shout" in _text(invalid)
    assert unknown.is_error and "No tool named 'secret'" in _text(unknown)


async def test_an_admin_account_gets_the_admin_tools(env: dict[str, str]) -> None:
    subprocess.run(
        [PAGECHAT, "users", "create", "root@example.com", "--password", "a long passphrase",
         "--admin", "--app", APP],
        env=env, cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    async with Client(_server(env, "--user", "root@example.com")) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        secret = await client.call_tool("secret", {})
        shouted = await client.call_tool("shout", {"text": "hi"})
    assert "secret" in names
    assert _text(secret) == "the admin's secret"
    assert _text(shouted).startswith("HI! (asked by an admin)\n\nSources")


def test_an_unknown_user_is_a_clear_error(env: dict[str, str]) -> None:
    done = subprocess.run(
        [PAGECHAT, "mcp", "serve", "--app", APP, "--user", "nobody@example.com"],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 1
    assert "pagechat: error: no account for nobody@example.com" in done.stderr


def test_an_app_whose_tools_need_a_user_refuses_to_serve_without_one(env: dict[str, str]) -> None:
    done = subprocess.run(
        [PAGECHAT, "mcp", "serve", "--app", "horizon.app:create_app"],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip

    assert done.returncode == 1
    assert "act for a signed-in user" in done.stderr and "pass --user EMAIL" in done.stderr
    assert "Traceback" not in done.stderr
