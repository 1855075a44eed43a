"""What Horizon's server actions share: the outcome, the user's scope, the data check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.pages import ActionContext, as_dict, as_id, first
from pagechat.tools import schema_error

__all__ = ["ActionFailed", "ActionOutcome", "action_scope", "check_data", "context_id"]


@dataclass(frozen=True, slots=True)
class ActionOutcome:
    """What an action tells the user (`message`) and the page (`data`)."""

    message: str
    data: Any = None
    ok: bool = True


class ActionFailed(Exception):
    """The action cannot be done; the message says why, for the user."""


def action_scope(ctx: ActionContext) -> tuple[AsyncSession, str]:
    if not isinstance(ctx.session, AsyncSession):
        raise ActionFailed("This action needs the app's database, and the request has none.")
    if not ctx.user_id:
        raise ActionFailed("This action needs a signed-in user.")
    return ctx.session, ctx.user_id


def check_data(schema: dict[str, Any], data: dict[str, Any]) -> None:
    problem = schema_error(schema, data)
    if problem is not None:
        raise ActionFailed(f"Invalid data: {problem}")


def context_id(data: dict[str, Any], ctx: ActionContext, key: str, nested: str) -> int | None:
    """An id from the action's data, else from the page context (`key`, or `nested.id`)."""
    found = as_id(data.get(key))
    if found is not None:
        return found
    page = ctx.page_context
    return as_id(first(page, key)) or as_id(as_dict(page.get(nested)).get("id"))
