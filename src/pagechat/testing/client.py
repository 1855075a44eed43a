"""A chat client for tests: one turn through `POST /api/chat/stream`, read to its end, and
the decision on a tool call that waits for the user's approval, with the turn that goes on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx

from ..protocol import (
    ApprovalDecisionResult,
    ApprovalRequestedEvent,
    ChatResponsePayload,
    StreamEvent,
)
from .assertions import completed_payload, streamed_text
from .sse import Frame, read_all

__all__ = ["ChatClient", "ChatTurn", "NoPendingApproval"]


class NoPendingApproval(LookupError):
    """`approve` or `deny` on a turn that did not end waiting for an approval."""


@dataclass(frozen=True)
class ChatTurn:
    """What a turn sent: the HTTP response (status, headers) and every SSE frame.

    A turn that went on after an approval decision also has the decision's answer
    (`decision`: the approval as decided, the id of the run that went on).
    """

    response: httpx.Response
    frames: list[Frame] = field(default_factory=list)
    decision: ApprovalDecisionResult | None = None

    @property
    def status_code(self) -> int:
        """The HTTP status of the chat request."""
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
    def approval(self) -> ApprovalRequestedEvent | None:
        """The tool call the turn paused for (its last event), or None: it did not pause."""
        if not self.frames or self.frames[-1].type != "approval_requested":
            return None
        event = self.frames[-1].parsed
        assert isinstance(event, ApprovalRequestedEvent)
        return event

    @property
    def conversation_id(self) -> str:
        """The turn's conversation (the `X-Conversation-Id` header)."""
        return self.response.headers["X-Conversation-Id"]

    @property
    def run_id(self) -> str:
        """The turn's run (the `X-Run-Id` header)."""
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
        return await self._turn("POST", "/api/chat/stream", json=body)

    async def follow(self, run_id: str, *, after: int = 0) -> ChatTurn:
        """A run's events after sequence number `after` (0: all), read to the run's end."""
        headers = {"Last-Event-ID": str(after)} if after else {}
        return await self._turn("GET", f"/api/chat/runs/{run_id}/events", headers=headers)

    async def approve(self, turn: ChatTurn, *, note: str | None = None) -> ChatTurn:
        """Approve the call `turn` paused for; the turn that goes on, read to its end."""
        return await self.decide(turn, "approved", note=note)

    async def deny(self, turn: ChatTurn, *, note: str | None = None) -> ChatTurn:
        """Deny the call `turn` paused for (the model is told, with `note`); the turn that
        goes on, read to its end."""
        return await self.decide(turn, "denied", note=note)

    async def decide(
        self, turn: ChatTurn, decision: Literal["approved", "denied"], *, note: str | None = None
    ) -> ChatTurn:
        """Send the decision on the call `turn` paused for and follow the run that goes on.

        Raises NoPendingApproval when `turn` did not pause. A refused decision (404: not
        this user's; 409: decided already, or lapsed) comes back with its response and
        no frames.
        """
        pending = turn.approval
        if pending is None:
            ended = turn.frames[-1].type if turn.frames else f"HTTP {turn.status_code}"
            raise NoPendingApproval(
                f"the turn did not pause for an approval: it ended with {ended}"
            )
        response = await self.http.post(
            f"/api/chat/approvals/{pending.approval_id}",
            json={"decision": decision, "note": note},
            headers=self.headers,
        )
        if response.status_code != 200:
            return ChatTurn(response)
        result = ApprovalDecisionResult.model_validate(response.json())
        resumed = await self.follow(result.run_id)
        return ChatTurn(resumed.response, resumed.frames, decision=result)

    async def _turn(
        self,
        method: str,
        url: str,
        *,
        json: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> ChatTurn:
        async with self.http.stream(
            method, url, json=json, headers={**self.headers, **(headers or {})}
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
