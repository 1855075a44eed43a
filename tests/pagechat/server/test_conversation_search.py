"""`GET /api/conversations/search`: the user's own conversations, by title and message text."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import Account


async def _conversation(client: httpx.AsyncClient, who: Account, message: str) -> str:
    response = await client.post("/api/chat/stream", json={"message": message}, headers=who.headers)
    assert response.status_code == 200
    return response.headers["X-Conversation-Id"]


async def _search(client: httpx.AsyncClient, who: Account, q: str, **params: int) -> httpx.Response:
    return await client.get(
        "/api/conversations/search", params={"q": q, **params}, headers=who.headers
    )


async def test_a_word_finds_the_conversation_that_holds_it(
    client: httpx.AsyncClient, alice: Account
) -> None:
    wanted = await _conversation(client, alice, "Which trials used pembrolizumab?")
    await _conversation(client, alice, "Something else entirely")

    response = await _search(client, alice, "pembro")

    assert response.status_code == 200
    body = response.json()
    assert body["terms"] == ["pembro"]
    [hit] = body["items"]
    assert hit["conversation"]["id"] == wanted
    assert hit["snippet"] == "Which trials used pembrolizumab?"
    assert hit["message_id"]


async def test_another_users_conversations_are_not_searched(
    client: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    await _conversation(client, bob, "Bob's secret about nivolumab")

    response = await _search(client, alice, "nivolumab")

    assert response.status_code == 200
    assert response.json()["items"] == []


async def test_results_are_bounded_newest_first(client: httpx.AsyncClient, alice: Account) -> None:
    made = [await _conversation(client, alice, f"melanoma note {i}") for i in range(4)]

    response = await _search(client, alice, "melanoma", limit=2)

    assert [h["conversation"]["id"] for h in response.json()["items"]] == made[:1:-1]


@pytest.mark.parametrize(
    "q",
    ['"', '"unclosed', "*", "NEAR(a b)", "a OR", "title:x", "!!&|", "' OR 1=1 --", "(", "\\"],
)
async def test_search_syntax_is_plain_text_never_an_error(
    client: httpx.AsyncClient, alice: Account, q: str
) -> None:
    await _conversation(client, alice, "a or b near title x")

    response = await _search(client, alice, q)

    assert response.status_code == 200
    assert isinstance(response.json()["items"], list)


@pytest.mark.parametrize("params", [{"q": ""}, {"q": "x" * 201}, {"q": "x", "limit": 51}, {}])
async def test_an_empty_or_oversized_query_is_a_422(
    client: httpx.AsyncClient, alice: Account, params: dict[str, str | int]
) -> None:
    response = await client.get("/api/conversations/search", params=params, headers=alice.headers)

    assert response.status_code == 422
    assert response.json()["detail"]


async def test_search_needs_a_token(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/conversations/search", params={"q": "x"})

    assert response.status_code == 401
