"""Tools through the real agent loop: a ScriptedModel calls them, as a model would."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.agent import (
    AgentApprovalRequested,
    AgentEvent,
    AgentToolComplete,
    LoopResume,
    run_agent_loop,
)
from pagechat.events import ToolUpdate
from pagechat.models import ModelToolCall, ScriptedModel, UserTurn, tool_call
from pagechat.tools import ToolConfig, ToolContext
from tests.conftest import Account


@dataclass(frozen=True)
class Ran:
    """What one tool call showed the user: its progress, then its result."""

    events: list[AgentEvent]

    @property
    def progress(self) -> list[ToolUpdate]:
        return [e for e in self.events if isinstance(e, ToolUpdate)]

    @property
    def result(self) -> AgentToolComplete:
        [done] = [e for e in self.events if isinstance(e, AgentToolComplete)]
        return done

    @property
    def text(self) -> str:
        return self.result.output


Call = Callable[..., Awaitable[Ran]]


@pytest.fixture
def call(session: AsyncSession, horizon_tools: tuple[ToolConfig, ...]) -> Call:
    """`await call(user, "tool_name", {...})`: one tool call by a scripted model, for `user`."""

    async def run(
        user: Account | None,
        name: str,
        params: dict[str, Any] | None = None,
        *,
        page: dict[str, Any] | None = None,
        with_session: bool = True,
    ) -> Ran:
        request: ModelToolCall = tool_call(name, params or {})
        model = ScriptedModel([[request], ["Done."]])
        context = ToolContext(
            user_id=user.user.id if user else None,
            page_context=page or {},
            session=session if with_session else None,
        )
        loop = functools.partial(
            run_agent_loop,
            model=model,
            system="You are Horizon's assistant.",
            messages=[UserTurn("Go.")],
            tools=horizon_tools,
            context=context,
        )
        events = [event async for event in loop()]
        if isinstance(events[-1], AgentApprovalRequested):
            # A tool that asks first: the user approves, as the decision route would resume it.
            resume = LoopResume(events[-1].state, approved=True)
            events += [event async for event in loop(resume=resume)]
        return Ran(events)

    return run


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """SQLite only: these tests are about the layer above the database, whose queries the
    domain tests run on SQLite and PostgreSQL alike."""
    return sqlite_url
