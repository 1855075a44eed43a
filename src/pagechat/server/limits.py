"""Request body limits: an oversized body is refused before it is read into memory."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodySizeLimit"]


class BodySizeLimit:
    """Answer 413 with a JSON body when a request body passes `max_bytes`."""

    def __init__(
        self, app: ASGIApp, *, max_bytes: int = 256 * 1024, exempt: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.exempt = exempt
        """Paths whose route bounds its own body as it reads it (an upload)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.exempt:
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        seen = 0
        started = False

        async def _receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge(self.max_bytes)
            return message

        async def _send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, _receive, _send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"Request body larger than {self.max_bytes} bytes"}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class _TooLarge(HTTPException):
    # An HTTPException, so FastAPI's body reading re-raises it as it is: it turns any
    # other exception into "400 There was an error parsing the body".
    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"Request body larger than {max_bytes} bytes")
