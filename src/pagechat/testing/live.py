"""A real uvicorn server on loopback, in the caller's own event loop.

Streaming needs a real server: httpx's ASGI transport buffers whole responses, so a
test through it would never see an event before the answer ends.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn
from starlette.types import ASGIApp

__all__ = ["free_port", "serve"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@asynccontextmanager
async def serve(app: ASGIApp, *, stop_seconds: float = 10.0) -> AsyncIterator[str]:
    """Serve `app` (lifespan on) on a free loopback port; yields the base URL.

    The server runs as a task of the current event loop, so a test sees, and can wait
    on, everything the app does. Leaving the block shuts it down within `stop_seconds`.
    """
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # the start-up failed: raise its exception here
            raise RuntimeError("the server stopped before it started")
        await asyncio.sleep(0.005)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, stop_seconds)
