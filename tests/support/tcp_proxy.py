"""A TCP proxy in the test's event loop that a test can hold: one worker's way to Redis.

While held, nothing goes through in either direction (what was read waits in the proxy),
so the worker behind it stands as if Redis were slow, while its database and its clients
work; `release` lets everything through, in order.
"""

from __future__ import annotations

import asyncio
import contextlib

from pagechat.testing import free_port

__all__ = ["TcpProxy"]


class TcpProxy:
    """`127.0.0.1:<port>` forwarding to `127.0.0.1:<target>`; `hold()` and `release()`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self._open = asyncio.Event()
        self._open.set()
        self._server: asyncio.Server | None = None
        self._pumps: set[asyncio.Task[None]] = set()

    def url(self, path: str = "/0") -> str:
        """A Redis URL through the proxy."""
        return f"redis://127.0.0.1:{self.port}{path}"

    async def __aenter__(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release()
        if self._server is not None:
            self._server.close()
        for task in list(self._pumps):
            task.cancel()
        for task in list(self._pumps):
            with contextlib.suppress(BaseException):
                await task

    def hold(self) -> None:
        """Nothing goes through from now on until `release`."""
        self._open.clear()

    def release(self) -> None:
        """Everything held goes through, and what follows."""
        self._open.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pump(source, sink))
            self._pumps.add(task)
            task.add_done_callback(self._pumps.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                await self._open.wait()
                sink.write(data)
                await sink.drain()
        except OSError:
            pass
        finally:
            sink.close()
