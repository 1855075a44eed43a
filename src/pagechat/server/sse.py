"""The SSE response of the chat routes: sse-starlette's, minus one cost per chunk.

`EventSourceResponse` sends every chunk inside `anyio.move_on_after(send_timeout)`,
which opens a cancel scope even when there is no timeout; for a stream of text
deltas that is a scope per token, about a tenth of the relay's CPU in Python
(bench/relay_cpu.py). Without a send timeout the chunk is sent directly. A slow
client still costs nothing unbounded: the run does not wait for its readers, and
uvicorn applies backpressure per connection.
"""

from __future__ import annotations

from sse_starlette import EventSourceResponse
from starlette.types import Message, Send

__all__ = ["EventStream"]


class EventStream(EventSourceResponse):
    async def _send_with_timeout(self, send: Send, message: Message) -> None:
        if self.send_timeout is None:
            await send(message)
        else:
            await super()._send_with_timeout(send, message)
