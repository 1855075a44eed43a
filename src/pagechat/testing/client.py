"""A chat client for tests: one turn through `POST /api/chat/stream`, read to its end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..protocol import ChatResponsePayload, StreamEvent
from .assertions import completed_payload, streamed_text
from .sse import Frame, read_all

__all__ = ["ChatClient", "ChatTurn"]


@dataclass(frozen=True)
class ChatTurn:
    """What a turn sent: the HTTP response (status, headers) and every SSE frame."""

    response: httpx.Response
    frames: list[Frame] = field(default_factory=list)

    @property
    def status_code(self) -> int:
        return self.response.status_code

    @property
    def events(self) -> list[StreamEvent]:
        """The frames as protocol models."""
        return [f.parsed for f in self.frames]

    @property
    def text(self) -> str:
        """The text that streamed, `[[tool:N]]` markers included."""
        return streamed_text(self.frames)

    @property
    def payload(self) -> ChatResponsePayload:
        """The `complete` event's payload; fails when the turn did not complete."""
        return completed_payload(self.frames)

    @property
    def conversation_id(self) -> str:
        return self.response.headers["X-Conversation-Id"]

    @property
    def run_id(self) -> str:
        return self.response.headers["X-Run-Id"]


class ChatClient:
    """Sends turns as one user (their `Authorization` header) to a running app."""

    def __init__(self, http: httpx.AsyncClient, headers: Mapping[str, str]) -> None:
        self.http = http
        self.headers = dict(headers)

    async def chat(
        self,
        message: str = "hello",
        *,
        page: str | None = None,
        context: Mapping[str, Any] | None = None,
        conversation_id: str | None = None,
    ) -> ChatTurn:
        """One turn, read to its end. `page` is `context.current_page`.

        A refused turn (4xx/5xx) comes back with its response and no frames.
        """
        body_context = dict(context or {})
        if page is not None:
            body_context["current_page"] = page
        body: dict[str, Any] = {"message": message, "context": body_context}
        if conversation_id is not None:
            body["conversation_id"] = conversation_id
        async with self.http.stream(
            "POST", "/api/chat/stream", json=body, headers=self.headers
        ) as response:
            if response.status_code != 200:
                await response.aread()
                return ChatTurn(response)
            return ChatTurn(response, await read_all(response))

    async def action(
        self,
        action: str,
        data: Mapping[str, Any] | None = None,
        *,
        conversation_id: str,
        page: str | None = None,
    ) -> httpx.Response:
        """Run a page's server action, as an action button in the tray does."""
        context = {"current_page": page} if page is not None else {}
        return await self.http.post(
            "/api/chat/actions",
            json={
                "conversation_id": conversation_id,
                "action": action,
                "data": dict(data or {}),
                "context": context,
            },
            headers=self.headers,
        )
