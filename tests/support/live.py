"""A real uvicorn server on loopback, in the test's own event loop, and an SSE reader."""

from __future__ import annotations

import asyncio
import json
import socket
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import uvicorn
from starlette.types import ASGIApp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@asynccontextmanager
async def serve(app: ASGIApp) -> AsyncIterator[str]:
    """Serve `app` with uvicorn on a free loopback port; yields the base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.005)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


@dataclass(frozen=True)
class Frame:
    id: int
    event: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.event["type"])


_LINES: weakref.WeakKeyDictionary[httpx.Response, AsyncIterator[str]] = weakref.WeakKeyDictionary()


async def frames(response: httpx.Response) -> AsyncIterator[Frame]:
    """Parse an SSE body into frames (`id:` + JSON `data:`), ignoring comments and pings.

    A test may stop reading and later call `frames` again on the same response:
    reading resumes where it stopped.
    """
    lines = _LINES.get(response)
    if lines is None:
        lines = _LINES[response] = response.aiter_lines()
    event_id: int | None = None
    data: list[str] = []
    async for line in lines:
        if line == "":
            if data:
                yield Frame(event_id if event_id is not None else -1, json.loads("\n".join(data)))
            event_id, data = None, []
        elif line.startswith(":"):
            continue
        elif line.startswith("id:"):
            event_id = int(line[3:].strip())
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
    if data:
        yield Frame(event_id if event_id is not None else -1, json.loads("\n".join(data)))


async def read_all(response: httpx.Response) -> list[Frame]:
    return [f async for f in frames(response)]
