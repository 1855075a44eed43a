"""Searching the user's own conversations: titles and message text, full-text.

Mounted before the conversation routes, so `/api/conversations/search` is not read as
a conversation id.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from ...protocol import ConversationSearchResults
from ...store.base import ChatStore
from ...store.search import search_terms
from ..deps import CurrentUser

__all__ = ["MAX_QUERY_CHARS", "MAX_RESULTS", "router"]

router = APIRouter(prefix="/api/conversations", tags=["conversations"])

MAX_QUERY_CHARS = 200
MAX_RESULTS = 50


@router.get("/search")
async def search_conversations(
    request: Request,
    user: CurrentUser,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY_CHARS, pattern=r"^[^\x00]*$")],
    limit: Annotated[int, Query(ge=1, le=MAX_RESULTS)] = 20,
) -> ConversationSearchResults:
    """The user's conversations whose title or messages hold every word of `q` (as a word
    or the start of one), most recently active first. Quotes and search operators are
    read as plain words."""
    store: ChatStore = request.app.state.chat.store
    terms = search_terms(q)
    items = await store.search_conversations(user=user, terms=terms, limit=limit)
    return ConversationSearchResults(items=items, terms=terms)
