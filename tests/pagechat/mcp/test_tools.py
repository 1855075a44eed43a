"""MCP servers' tools in real turns: mcp-server-time over stdio, and an SDK server of our own
(stdio and streamable HTTP) with a slow, a hanging and a crashing tool."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from pagechat.mcp import McpServer, McpTools
from pagechat.models import tool_call
from pagechat.testing import event_types, frames, free_port
from pagechat.tools import clear_tools, get_tool
from tests.support.harness import Harness, harness

SERVER = Path(__file__).with_name("mcp_test_server.py")


@pytest.fixture
def _tools() -> Iterator[None]:
    clear_tools()
    yield
    clear_tools()


@pytest.fixture
async def h(_tools: None) -> AsyncIterator[Harness]:
    async with harness() as h:
        yield h


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "mcp.log"
    path.touch()
    return path


def _stdio(log: Path, *, timeout: float = 60.0) -> McpServer:
    return McpServer(
        name="test",
        command=sys.executable,
        args=(str(SERVER), "--stdio", str(log)),
        timeout=timeout,
    )


@pytest.fixture
async def http_server(log: Path) -> AsyncIterator[str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(SERVER), "--http", str(port), str(log)])
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        async with httpx.AsyncClient() as client:
            for _ in range(200):
                try:
                    await client.get(url)
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def _starts(log: Path) -> int:
    return log.read_text().count("started")


async def _until(predicate: object, what: str) -> None:
    for _ in range(100):
        if callable(predicate) and predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not within 5 s: {what}")


async def test_mcp_server_time_answers_in_a_turn_over_stdio(h: Harness) -> None:
    mcp = McpTools(
        [
            McpServer(
                name="time",
                command=sys.executable,
                args=("-m", "mcp_server_time", "--local-timezone", "UTC"),
            )
        ]
    )
    await mcp.start()
    try:
        assert {"get_current_time", "convert_time"} <= mcp.tool_names("time")
        h.script(
            [tool_call("get_current_time", {"timezone": "Europe/Paris"}, id="t1")],
            ["It is evening in Paris."],
        )
        _, fs = await h.chat("What time is it in Paris?")
    finally:
        await mcp.aclose()
    done = next(f.event for f in fs if f.type == "tool_complete")
    assert done["is_error"] is False
    assert '"timezone": "Europe/Paris"' in done["output"] and '"datetime"' in done["output"]
    assert fs[-1].type == "complete"
    assert get_tool("get_current_time") is None, "closing unregisters the server's tools"


async def test_input_is_validated_against_the_servers_schema(h: Harness, log: Path) -> None:
    mcp = McpTools([_stdio(log)])
    await mcp.start()
    try:
        h.script([tool_call("add", {"a": 2, "b": "three"}, id="t1")], ["Sorry."])
        _, fs = await h.chat()
    finally:
        await mcp.aclose()
    done = next(f.event for f in fs if f.type == "tool_complete")
    assert done["is_error"] is True
    assert "'three' is not of type 'integer'" in done["output"]


async def test_http_server_with_headers_streams_progress(
    h: Harness, log: Path, http_server: str
) -> None:
    mcp = McpTools(
        [McpServer(name="remote", url=http_server, headers={"X-Test-Key": "sesame"}, prefix="r_")]
    )
    await mcp.start()
    try:
        assert mcp.tool_names("remote") == {"r_add", "r_slow", "r_hang", "r_grow", "r_crash"}
        h.script(
            [
                tool_call("r_add", {"a": 2, "b": 3}, id="t1"),
                tool_call("r_slow", {"steps": 3}, id="t2"),
            ],
            ["Done."],
        )
        _, fs = await h.chat()
    finally:
        await mcp.aclose()
    outputs = [f.event["output"] for f in fs if f.type == "tool_complete"]
    assert outputs == ["5", "counted to 3"]
    progress = [f.event for f in fs if f.type == "tool_progress"]
    assert [p["message"] for p in progress] == ["step 1 of 3", "step 2 of 3", "step 3 of 3"]
    assert progress[-1]["progress"] == 1.0


async def test_a_server_refusing_our_headers_offers_no_tools(log: Path, http_server: str) -> None:
    mcp = McpTools([McpServer(name="remote", url=http_server, connect_timeout=1.0)])
    try:
        await mcp.start()
        assert mcp.tool_names("remote") == set()
    finally:
        await mcp.aclose()


async def test_stop_cancels_the_call_on_the_server(h: Harness, log: Path) -> None:
    mcp = McpTools([_stdio(log)])
    await mcp.start()
    try:
        h.script([tool_call("slow", {"steps": 100}, id="t1")], ["never"])
        async with h.client.stream(
            "POST",
            "/api/chat/stream",
            json={"message": "count"},
            headers={"Authorization": "Bearer token-a"},
        ) as r:
            async for frame in frames(r):
                if frame.type == "tool_progress":
                    break
            await h.client.post(
                f"/api/chat/runs/{r.headers['x-run-id']}/cancel",
                headers={"Authorization": "Bearer token-a"},
            )
            rest = [f async for f in frames(r)]
        assert event_types(rest)[-1] == "cancelled"
        await _until(lambda: "cancelled slow" in log.read_text(), "the server saw the cancel")
    finally:
        await mcp.aclose()


async def test_a_hung_call_times_out_and_the_answer_goes_on(h: Harness, log: Path) -> None:
    mcp = McpTools([_stdio(log, timeout=0.5)])
    await mcp.start()
    try:
        h.script([tool_call("hang", {}, id="t1")], ["The tool hung, sorry."])
        _, fs = await h.chat()
        await _until(lambda: "cancelled hang" in log.read_text(), "the server saw the cancel")
    finally:
        await mcp.aclose()
    done = next(f.event for f in fs if f.type == "tool_complete")
    assert done["is_error"] is True and "timed out" in done["output"]
    assert fs[-1].type == "complete"
    assert fs[-1].event["payload"]["message"].endswith("The tool hung, sorry.")


async def test_a_crashed_server_is_a_tool_error_and_comes_back(h: Harness, log: Path) -> None:
    mcp = McpTools([_stdio(log)])
    await mcp.start()
    try:
        h.script([tool_call("crash", {}, id="t1")], ["It crashed."])
        _, fs = await h.chat()
        done = next(f.event for f in fs if f.type == "tool_complete")
        assert done["is_error"] is True and "could not run" in done["output"]
        assert fs[-1].type == "complete"

        # The next call reconnects: a new server process answers.
        h.script([tool_call("add", {"a": 1, "b": 1}, id="t2")], ["Two."])
        _, fs = await h.chat()
        done = next(f.event for f in fs if f.type == "tool_complete")
        assert (done["is_error"], done["output"]) == (False, "2")
        (connection,) = mcp.connections
        assert connection.connects == 2
        assert _starts(log) == 2
    finally:
        await mcp.aclose()


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_servers_new_tools_join_the_registry_when_it_says_they_changed(
    h: Harness, log: Path, http_server: str, transport: str
) -> None:
    server = (
        _stdio(log)
        if transport == "stdio"
        else McpServer(name="test", url=http_server, headers={"X-Test-Key": "sesame"})
    )
    mcp = McpTools([server])
    await mcp.start()
    try:
        assert "extra" not in mcp.tool_names("test")
        h.script([tool_call("grow", {}, id="t1")], ["Grown."])
        await h.chat()

        await _until(lambda: "extra" in mcp.tool_names("test"), "the tool list re-read")
        h.script([tool_call("extra", {"text": "hi"}, id="t2")], ["Used it."])
        _, fs = await h.chat()
    finally:
        await mcp.aclose()
    done = next(f.event for f in fs if f.type == "tool_complete")
    assert (done["output"], done["is_error"]) == ("extra: hi", False)
    assert server.name in {c.name for c in mcp.connections if c.connects == 1}, "no reconnect"
