"""Hostile input against the app `pagechat serve` builds: whatever a client sends, the
answer is a JSON 4xx (or the normal answer), never a 5xx, a crash or a half-stored turn.

Request validation and Last-Event-ID parsing are property-tested through the routes.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from pagechat.models import FunctionModel, tool_call
from pagechat.pages import ActionContext, ServerAction, register_page
from pagechat.protocol import MAX_JSON_DEPTH, MAX_MESSAGE_CHARS, ActionRequest, ChatRequest
from pagechat.testing import read_all, streamed_text
from pagechat.tools import ToolConfig, ToolContext, register_tool
from tests.conftest import PASSWORD
from tests.reliability.conftest import (
    LOGIN_MAX_ATTEMPTS,
    LOGIN_WINDOW_SECONDS,
    MAX_BODY_BYTES,
    Live,
    Threaded,
)

PROPERTY_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _body_routes(live: Live) -> list[tuple[str, str]]:
    """Every operation of the app's OpenAPI schema that takes a request body."""
    paths: dict[str, dict[str, Any]] = live.app.openapi()["paths"]
    return sorted(
        (method.upper(), path.replace("{conversation_id}", "some-id"))
        for path, operations in paths.items()
        for method, operation in operations.items()
        if "requestBody" in operation
    )


def _is_json_4xx(response: httpx.Response) -> bool:
    return (
        400 <= response.status_code < 500
        and response.headers.get("content-type", "").startswith("application/json")
        and "detail" in response.json()
    )


async def _nothing_started(live: Live) -> None:
    assert live.runs.active() == []
    listed = await live.client.get("/api/conversations", headers=live.alice.headers)
    assert listed.json()["total"] == 0
    assert (await live.client.get("/api/health")).json()["status"] == "ok"


# --- size ----------------------------------------------------------------------------


async def test_an_oversized_body_is_413_json_on_every_route_that_takes_one(live: Live) -> None:
    routes = _body_routes(live)
    body = json.dumps({"message": "x", "context": {"blob": "y" * MAX_BODY_BYTES}}).encode()

    for method, path in routes:
        response = await live.client.request(
            method,
            path,
            content=body,
            headers={**live.alice.headers, "content-type": "application/json"},
        )
        assert response.status_code == 413 and _is_json_4xx(response), f"{method} {path}"
    assert len(routes) >= 4  # login, stream, actions, rename
    await _nothing_started(live)


async def _chunks(body: bytes, size: int = 16 * 1024) -> AsyncIterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start : start + size]


async def test_an_oversized_chunked_body_is_413_json(live: Live) -> None:
    body = json.dumps({"message": "x", "context": {"blob": "y" * MAX_BODY_BYTES}}).encode()

    for method, path in _body_routes(live):
        response = await live.client.request(
            method,
            path,
            content=_chunks(body),
            headers={**live.alice.headers, "content-type": "application/json"},
        )
        assert response.status_code == 413 and _is_json_4xx(response), (
            f"{method} {path}: {response.status_code} {response.text}"
        )


async def test_a_body_of_exactly_the_limit_is_answered(live: Live) -> None:
    live.script(["Read it."])
    empty = json.dumps({"message": "Read this", "context": {"blob": ""}})
    body = empty.replace('""', '"' + "y" * (MAX_BODY_BYTES - len(empty.encode())) + '"')
    assert len(body.encode()) == MAX_BODY_BYTES

    async with live.client.stream(
        "POST",
        "/api/chat/stream",
        content=body,
        headers={**live.alice.headers, "content-type": "application/json"},
    ) as response:
        fs = await read_all(response)

    assert response.status_code == 200 and fs[-1].type == "complete"


# --- shape and encoding ---------------------------------------------------------------


def _nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/api/chat/stream", '{"message": "hi", "context": %s}'),
        ("/api/chat/actions", '{"action": "note", "context": %s}'),
        ("/api/chat/actions", '{"action": "note", "data": %s}'),
    ],
)
async def test_json_nested_ten_thousand_levels_deep_is_a_4xx_json(
    live: Live, path: str, template: str
) -> None:
    response = await live.client.post(
        path,
        content=template % _nested(10_000),
        headers={**live.alice.headers, "content-type": "application/json"},
    )

    assert _is_json_4xx(response), f"{response.status_code} {response.text[:200]}"
    await _nothing_started(live)


async def test_a_deep_context_that_parses_is_a_422_naming_the_limit(live: Live) -> None:
    # Deep JSON that parses would pass pydantic and then fail to encode mid-stream
    # (issue 34, item 4): it is refused before anything starts.
    body = {"message": "Look", "context": {"state": json.loads(_nested(500))}}
    response = await live.client.post("/api/chat/stream", json=body, headers=live.alice.headers)

    assert _is_json_4xx(response)
    assert "MAX_JSON_DEPTH" in json.dumps(response.json()["detail"])
    await _nothing_started(live)


async def test_an_integer_beyond_64_bits_in_the_context_is_a_422_not_a_500(live: Live) -> None:
    # Schemathesis found it: the answer's takeover recipe (orjson) could not encode it, and
    # the start failed with a 500 after the checks.
    for number in (2**63, -(2**63) - 1, 10**40):
        body = {"message": "Look", "context": {"page": [1, {"n": number}]}}
        response = await live.client.post("/api/chat/stream", json=body, headers=live.alice.headers)
        assert _is_json_4xx(response) and response.status_code == 422, response.text[:200]
        assert "64-bit range at page[1].n" in json.dumps(response.json()["detail"])
    await _nothing_started(live)
    live.script(["Seen."])
    response, fs = await live.chat("Look", context={"edge": [2**63 - 1, -(2**63)]})
    assert response.status_code == 200 and fs[-1].type == "complete"


async def test_a_context_as_deep_as_the_limit_goes_through_the_whole_turn(live: Live) -> None:
    live.script(["Seen."])
    # `context` is one level, `state` the next: the rest fills the limit.
    response, fs = await live.chat(
        "Look", context={"state": json.loads(_nested(MAX_JSON_DEPTH - 2))}
    )

    assert response.status_code == 200 and fs[-1].type == "complete"
    messages = await live.messages(response.headers["x-conversation-id"])
    assert [m["status"] for m in messages] == ["complete", "complete"]


async def test_a_body_that_is_not_utf8_is_a_4xx_json_on_every_route_that_takes_one(
    live: Live,
) -> None:
    for method, path in _body_routes(live):
        response = await live.client.request(
            method,
            path,
            content=b'{"message": "caf\xe9 \xff\xfe", "email": "\xc3\x28", "title": "\x80"}',
            headers={**live.alice.headers, "content-type": "application/json"},
        )
        assert _is_json_4xx(response), f"{method} {path}: {response.status_code}"
    await _nothing_started(live)


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "application/octet-stream",
    ],
)
async def test_a_wrong_content_type_is_a_4xx_json(live: Live, content_type: str | None) -> None:
    headers = dict(live.alice.headers)
    if content_type is not None:
        headers["content-type"] = content_type

    for method, path in _body_routes(live):
        response = await live.client.request(
            method, path, content=b'{"message": "hi", "title": "t"}', headers=headers
        )
        assert _is_json_4xx(response), f"{method} {path}: {response.status_code}"
    await _nothing_started(live)


# --- text no database or API can take -------------------------------------------------


async def _assert_everything_readable(live: Live) -> None:
    """Every conversation of Alice's opens, and no answer is left `running`."""
    listed = await live.client.get("/api/conversations?limit=100", headers=live.alice.headers)
    assert listed.status_code == 200
    for item in listed.json()["items"]:
        detail = await live.client.get(
            f"/api/conversations/{item['id']}", headers=live.alice.headers
        )
        assert detail.status_code == 200, f"conversation {item['id']}: {detail.status_code}"
        assert all(m["status"] != "running" for m in detail.json()["messages"])


async def _send_raw(live: Live, method: str, path: str, body: str | None) -> httpx.Response:
    async with live.client.stream(
        method,
        path,
        content=body,
        headers={**live.alice.headers, "content-type": "application/json"},
    ) as response:
        await response.aread()
        return response


def _answered_sanely(response: httpx.Response) -> bool:
    """A JSON answer below 500, or a stream whose turn completed."""
    if response.status_code >= 500:
        return False
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        events = [
            json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")
        ]
        return bool(events[-1]["type"] == "complete")
    return response.status_code == 204 or isinstance(response.json(), dict)


@pytest.fixture
async def noted_conversation(live_on_each_database: Live) -> str:
    live = live_on_each_database
    register_page("notes", server_actions=[ServerAction("note", "Note", _echo)])
    live.use_model(FunctionModel(lambda _request: "OK"))
    response, _ = await live.chat("Start")
    return response.headers["x-conversation-id"]


def _echo(data: dict[str, Any], ctx: ActionContext) -> dict[str, Any]:
    return data


def _unstorable_requests(conversation_id: str, char: str) -> list[tuple[str, str, str | None]]:
    """Requests carrying `char` in each text field; json.dumps sends it as a `\\u` escape."""

    def action(conversation: str, data: dict[str, Any]) -> str:
        context = {"current_page": "notes"}
        body = {"action": "note", "conversation_id": conversation, "data": data, "context": context}
        return json.dumps(body)

    return [
        ("POST", "/api/chat/stream", json.dumps({"message": f"a{char}b"})),
        ("POST", "/api/chat/stream", json.dumps({"message": "hi", "conversation_id": char})),
        ("POST", "/api/chat/stream", json.dumps({"message": "hi", "context": {"a": char}})),
        ("POST", "/api/chat/stream", json.dumps({"message": "hi", "context": {char: 1}})),
        ("POST", "/api/chat/actions", action(conversation_id, {"a": char})),
        ("POST", "/api/chat/actions", action(conversation_id, {char: 1})),
        ("POST", "/api/chat/actions", action(char, {})),
        ("PATCH", f"/api/conversations/{conversation_id}", json.dumps({"title": f"a{char}b"})),
        (
            "POST",
            "/api/auth/login",
            json.dumps({"email": f"a{char}@example.com", "password": "pw"}),
        ),
    ]


async def test_lone_surrogates_are_refused_and_leave_every_conversation_readable(
    live_on_each_database: Live, noted_conversation: str
) -> None:
    live = live_on_each_database
    for method, path, body in _unstorable_requests(noted_conversation, "\ud800"):
        response = await _send_raw(live, method, path, body)
        assert _answered_sanely(response), f"{path} {body}: {response.status_code}"
    await _assert_everything_readable(live)


async def test_nul_characters_are_refused_or_stored_and_every_conversation_stays_readable(
    live_on_each_database: Live, noted_conversation: str
) -> None:
    live = live_on_each_database
    requests = _unstorable_requests(noted_conversation, "\x00")
    requests += [
        (method, "/api/conversations/a%00b", None) for method in ("GET", "PATCH", "DELETE")
    ]
    for method, path, body in requests:
        response = await _send_raw(live, method, path, body)
        assert _answered_sanely(response), f"{method} {path} {body}: {response.status_code}"
    await _assert_everything_readable(live)


async def test_a_page_offset_past_what_sql_can_hold_is_a_4xx(live: Live) -> None:
    for offset in (2**63, 10**30):
        response = await live.client.get(
            f"/api/conversations?offset={offset}", headers=live.alice.headers
        )
        assert _is_json_4xx(response), f"offset={offset}: {response.status_code}"


# --- properties: request validation through the routes --------------------------------

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
MESSAGES = st.text(max_size=40) | st.sampled_from(["", "  \n", "x" * (MAX_MESSAGE_CHARS + 1)])
IDS = st.none() | st.text(max_size=70) | st.integers()


def _maybe(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Dictionaries holding any subset of `fields`, with values that may be the wrong type."""
    return st.fixed_dictionaries({}, optional={k: v | JSON_VALUES for k, v in fields.items()})


@given(
    body=_maybe(
        message=MESSAGES, context=st.dictionaries(st.text(), JSON_VALUES), conversation_id=IDS
    )
)
@PROPERTY_SETTINGS
def test_the_chat_route_accepts_exactly_what_chat_request_accepts(
    threaded: Threaded, body: dict[str, Any]
) -> None:
    try:
        request = ChatRequest.model_validate(body)
    except ValidationError:
        request = None

    with httpx.Client(base_url=threaded.base, timeout=10) as client:
        with client.stream("POST", "/api/chat/stream", json=body, headers=threaded.headers) as r:
            r.read()

    if request is None:
        assert r.status_code == 422 and isinstance(r.json()["detail"], list), r.text
    elif request.conversation_id is not None:
        assert r.status_code == 404 and r.json() == {"detail": "Conversation not found"}
    else:
        assert r.status_code == 200, r.text
        assert r.text.rstrip().splitlines()[-1].startswith('data: {"type":"complete"')


@pytest.fixture
def echo_page() -> None:
    register_page("hostile", server_actions=[ServerAction("echo", "Echo", _echo)])


@given(
    body=_maybe(
        action=st.sampled_from(["echo", "missing", ""]) | st.text(max_size=10),
        conversation_id=IDS,
        data=st.dictionaries(st.text(), JSON_VALUES),
        context=st.fixed_dictionaries(
            {"current_page": st.sampled_from(["hostile", "elsewhere"]) | JSON_VALUES}
        ),
    )
)
@PROPERTY_SETTINGS
def test_the_action_route_accepts_exactly_what_action_request_accepts(
    threaded: Threaded, echo_page: None, body: dict[str, Any]
) -> None:
    try:
        request = ActionRequest.model_validate(body)
    except ValidationError:
        request = None

    r = httpx.post(
        f"{threaded.base}/api/chat/actions", json=body, headers=threaded.headers, timeout=10
    )

    page = None if request is None else request.context.get("current_page")
    if request is None:
        assert r.status_code == 422 and isinstance(r.json()["detail"], list), r.text
    elif page not in (None, "", "hostile"):  # a page nobody registered, or not a name at all
        assert r.status_code == 400 and r.json()["known_pages"] == ["hostile"], r.text
    elif page != "hostile" or request.action != "echo":
        assert r.status_code == 404 and r.json()["detail"].startswith("Unknown action")
    elif request.conversation_id is not None:
        assert r.status_code == 404 and r.json() == {"detail": "Conversation not found"}
    else:
        assert r.status_code == 200 and r.json()["data"] == request.data


@pytest.fixture
def finished_run(threaded: Threaded) -> tuple[str, list[str]]:
    """A finished run of Alice's and every SSE frame of it, as sent."""
    with httpx.Client(base_url=threaded.base, timeout=10) as client:
        r = client.post("/api/chat/stream", json={"message": "hi"}, headers=threaded.headers)
    return r.headers["x-run-id"], _wire_frames(r.text)


def _wire_frames(text: str) -> list[str]:
    return [frame for frame in text.split("\n\n") if frame.startswith("id:")]


HEADER_TEXT = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=12)
EVENT_IDS = (
    st.integers(-3, 8).map(str)
    | st.sampled_from(["", " 2 ", "+1", "1_0", "0x1", "1e0", "-0", "00", "9" * 5000, "3.0"])
    | HEADER_TEXT
)


@given(value=EVENT_IDS, where=st.sampled_from(["header", "query"]))
@settings(PROPERTY_SETTINGS, max_examples=100)
def test_resume_answers_exactly_the_events_after_any_last_event_id(
    threaded: Threaded, finished_run: tuple[str, list[str]], value: str, where: str
) -> None:
    run_id, sent = finished_run
    assume(where == "query" or value == value.strip())  # HTTP trims header values
    headers = dict(threaded.headers)
    params = {}
    if where == "header":
        headers["Last-Event-ID"] = value
    else:
        params["after"] = value

    r = httpx.get(
        f"{threaded.base}/api/chat/runs/{run_id}/events",
        headers=headers,
        params=params,
        timeout=10,
    )

    plain = value.strip()
    digits = re.fullmatch(r"[0-9]+", plain) is not None
    if value == "":
        assert r.status_code == 200 and _wire_frames(r.text) == sent
    elif digits and len(plain) < 10 and int(plain) <= len(sent):
        assert r.status_code == 200 and _wire_frames(r.text) == sent[int(plain) :]
    elif digits or not re.search(r"[0-9]", plain):
        assert r.status_code == 400 and "event id" in r.json()["detail"]
    else:
        # Numeric-looking oddities ("+1", "1_0"): refused, or read as a number in range.
        assert r.status_code in (200, 400), r.text
        if r.status_code == 200:
            got = _wire_frames(r.text)
            assert got == sent[len(sent) - len(got) :]
        else:
            assert "event id" in r.json()["detail"]


# --- login throttling ------------------------------------------------------------------


async def _login(
    base: str, email: str, password: str, *, source: str = "127.0.0.1", **headers: str
) -> httpx.Response:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10) as client:
        return await client.post(
            "/api/auth/login", json={"email": email, "password": password}, headers=headers
        )


async def test_login_is_throttled_per_email_and_address_and_recovers_after_the_window(
    live: Live,
) -> None:
    alice, bob = "alice@example.com", "bob@example.com"
    # A burst of guesses at once: each is counted as it arrives, before its password is
    # checked, so the ones past the limit are refused at once.
    guesses = [
        asyncio.create_task(_login(live.base, alice, f"guess {n}"))
        for n in range(LOGIN_MAX_ATTEMPTS + 2)
    ]
    for first in asyncio.as_completed(guesses):
        if (await first).status_code == 429:
            break
    throttled = await _login(live.base, alice, PASSWORD)  # even the right password
    burst = await asyncio.gather(*guesses)
    assert sorted(r.status_code for r in burst) == [401] * LOGIN_MAX_ATTEMPTS + [429, 429]

    other_email = await _login(live.base, bob, PASSWORD)
    other_address = await _login(live.base, alice, PASSWORD, source="127.0.0.2")

    assert throttled.status_code == 429 and _is_json_4xx(throttled)
    retry_after = int(throttled.headers["Retry-After"])
    assert 1 <= retry_after <= LOGIN_WINDOW_SECONDS + 1
    assert other_email.status_code == 200 and other_address.status_code == 200

    # A client that is no trusted proxy cannot pose as a fresh address for each guess.
    spoofed = await asyncio.gather(
        *(
            _login(
                live.base, bob, "guess", source="127.0.0.2", **{"X-Forwarded-For": f"10.0.0.{n}"}
            )
            for n in range(LOGIN_MAX_ATTEMPTS + 1)
        )
    )
    assert sorted(r.status_code for r in spoofed) == [401] * LOGIN_MAX_ATTEMPTS + [429]

    await asyncio.sleep(retry_after + 0.05)
    after_the_window = await _login(live.base, alice, PASSWORD)
    assert after_the_window.status_code == 200
    token = after_the_window.json()["access_token"]
    me = await live.client.get("/api/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json()["email"] == alice


QUERY = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


def _dump(_params: dict[str, Any], _ctx: ToolContext) -> str:
    return "raw\x00bytes \ud800end"


async def test_nul_and_lone_surrogates_from_the_model_and_tools_are_stored_as_streamed(
    live_on_each_database: Live,
) -> None:
    live = live_on_each_database
    register_tool(
        ToolConfig(name="dump", description="Dump a file", input_schema=QUERY, executor=_dump)
    )
    live.script(
        ["Reading\x00 it ", tool_call("dump", {"q": "a\x00b"}, id="t1")],
        ["Done \ud83d\ude00 \udfff."],
    )

    response, frames = await live.chat("Read the file")

    assert response.status_code == 200 and frames[-1].type == "complete"
    streamed = streamed_text(frames)
    assert streamed == "Reading\ufffd it [[tool:0]]Done 😀 \ufffd."
    stored = (await live.messages(response.headers["x-conversation-id"]))[-1]
    assert (stored["content"], stored["status"]) == (streamed, "complete")
    [entry] = stored["tool_history"]
    assert entry["input"] == {"q": "a\ufffdb"}
    assert entry["output"] == "raw\ufffdbytes \ufffdend"
