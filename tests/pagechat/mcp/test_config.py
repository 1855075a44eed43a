"""The MCP server list: Claude Desktop's JSON format, and clear errors for a bad one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from pagechat.mcp import McpConfigError, McpServer, load_mcp_config
from pagechat.server import create_app_from_settings
from pagechat.settings import Settings
from pagechat.testing import serve
from pagechat.tools import clear_tools, get_tool

SERVER = Path(__file__).with_name("mcp_test_server.py")


def _write(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_the_claude_desktop_format_is_read(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        {
            "mcpServers": {
                "time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "UTC"}},
                "docs": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "x"},
                         "timeout": 5, "prefix": "docs_", "requireApproval": ["delete"]},
            }
        },
    )  # fmt: skip
    time, docs = load_mcp_config(path)
    assert time == McpServer(
        name="time", command="uvx", args=("mcp-server-time",), env={"TZ": "UTC"}
    )
    assert (docs.url, dict(docs.headers), docs.timeout, docs.prefix) == (
        "https://mcp.example.com/mcp",
        {"Authorization": "x"},
        5.0,
        "docs_",
    )
    assert (time.needs_approval("get_time"), docs.needs_approval("delete")) == (False, True)
    assert not docs.needs_approval("search")
    assert McpServer(name="all", command="x", require_approval=True).needs_approval("any")


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"servers": {}}, 'no "mcpServers" object'),
        ({"mcpServers": {"a": {}}}, "give either a command or a url"),
        ({"mcpServers": {"a": {"command": "x", "url": "http://y"}}}, "either a command or a url"),
        ({"mcpServers": {"a": {"url": "file:///etc/passwd"}}}, "the url must be http(s)"),
        ({"mcpServers": {"a": {"command": "x", "args": "-v"}}}, "args must be a list of strings"),
        ({"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}, "env must map strings"),
        ({"mcpServers": {"a b": {"command": "x"}}}, "use 1-32 letters"),
        ({"mcpServers": {"a": {"command": "x", "timeout": 0}}}, "timeouts must be positive"),
        ({"mcpServers": {"a": {"command": "x", "timeout": "soon"}}}, "could not convert"),
        ({"mcpServers": {"a": {"command": "x", "requireApproval": "add"}}}, "requireApproval must"),
        ({"mcpServers": {"a": {"command": "x", "requireApproval": [1]}}}, "requireApproval must"),
    ],
)
def test_a_bad_config_says_what_is_wrong(tmp_path: Path, document: object, message: str) -> None:
    with pytest.raises(McpConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_mcp_config(_write(tmp_path, document))


def test_a_config_that_is_not_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(McpConfigError, match="is not valid JSON"):
        load_mcp_config(path)
    with pytest.raises(McpConfigError, match="cannot read the MCP config"):
        load_mcp_config(tmp_path / "missing.json")


def test_serve_refuses_a_bad_config_with_a_clear_message(tmp_path: Path) -> None:
    path = _write(tmp_path, {"mcpServers": {"a": {}}})
    done = subprocess.run(
        [str(Path(sys.executable).with_name("pagechat")), "serve", "--port", "0"],
        env={**os.environ, "PAGECHAT_MCP_CONFIG": str(path),
             "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
             "PAGECHAT_STATE_DIR": str(tmp_path / "state")},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert "pagechat: error: MCP server 'a': give either a command or a url" in done.stderr


async def test_the_apps_mcp_servers_join_at_startup_and_leave_at_shutdown(tmp_path: Path) -> None:
    clear_tools()
    log = tmp_path / "mcp.log"
    path = _write(
        tmp_path,
        {
            "mcpServers": {
                "test": {"command": sys.executable, "args": [str(SERVER), "--stdio", str(log)]}
            }
        },
    )
    settings = Settings(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/app.db",
        PAGECHAT_STATE_DIR=tmp_path / "state",
        PAGECHAT_PROVIDER="offline",
        PAGECHAT_MCP_CONFIG=path,
    )
    app = create_app_from_settings(settings)
    try:
        async with serve(app) as base, httpx.AsyncClient(base_url=base) as client:
            assert (await client.get("/api/health")).status_code == 200
            assert get_tool("add") is not None and get_tool("slow") is not None
        assert get_tool("add") is None
    finally:
        clear_tools()
