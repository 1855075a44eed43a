"""How long a long conversation takes to open, and in how many SQL statements.

The tray opens a conversation at its newest page (50 messages) and pages back
with the `older` cursor; this measures that (`first_page_*`, `older_page_*`)
over HTTP, beside reading every message at once through the store (`all_*`,
what opening a conversation cost before pages), and switching between two versions of
the last answer (`switch_*`: `PUT .../branch`, which answers with the newest page), and
back to the first version of a question asked again halfway up (`switch_halfway_*`: the
walk down that branch is half the conversation long).
Prints one JSON line.
`--database-url` picks the database (default: a SQLite file in a temporary
directory); `--messages` the length (default 10,000); written fresh each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event

from pagechat.auth import JwtAuthenticator, hash_password
from pagechat.models import FunctionModel
from pagechat.protocol import CustomPayload, ToolHistoryEntry, Usage
from pagechat.server import create_app
from pagechat.store import (
    AssistantRecord,
    SqlChatStore,
    create_engine,
    create_sessionmaker,
    upgrade_async,
)
from pagechat.store.db import display_url
from pagechat.store.users import create_user, principal_of

ROUNDS = 20


def _answer(i: int) -> AssistantRecord:
    card = CustomPayload(type="article_list", data={"pmids": [str(i), str(i + 1)]})
    return AssistantRecord(
        content=f"Answer {i}: " + "lorem ipsum dolor sit amet " * 12 + "[[tool:0]]",
        status="complete",
        tool_history=[
            ToolHistoryEntry(
                tool_name="search", input={"q": f"q{i}"}, output="x" * 400, payload=card
            )
        ],
        payloads=[card],
        custom_payload=card,
        usage=Usage(input_tokens=1200, output_tokens=240),
        context_audit="Page state: " + "y" * 300,
    )


async def _run(database_url: str, messages: int) -> dict[str, Any]:
    engine = create_engine(database_url)
    await upgrade_async(engine)
    sessions = create_sessionmaker(engine)
    async with sessions.begin() as session:
        row = await create_user(
            session=session,
            email=f"bench-{time.time_ns()}@example.com",
            password_hash=hash_password("bench"),
        )
    user = principal_of(row)
    store = SqlChatStore(sessions)
    conversation_id: str | None = None
    halfway = ""
    for i in range(messages // 2):
        ids = await store.begin_turn(user=user, conversation_id=conversation_id, message=f"Q{i}")
        conversation_id = ids.conversation_id
        if i == messages // 4:
            halfway = ids.user_message_id
        await store.finish_turn(assistant_message_id=ids.assistant_message_id, record=_answer(i))
    assert conversation_id is not None
    # The last answer regenerated once: two versions to switch between.
    again = await store.begin_branch(
        user=user,
        conversation_id=conversation_id,
        message_id=ids.assistant_message_id,
        kind="regenerate",
        run_id="bench-regenerate",
    )
    await store.finish_turn(assistant_message_id=again.assistant_message_id, record=_answer(0))

    statements: list[str] = []

    def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    store_ms: list[float] = []
    for _ in range(ROUNDS // 4):
        start = time.perf_counter()
        detail = await store.get_conversation(user=user, conversation_id=conversation_id)
        store_ms.append((time.perf_counter() - start) * 1000)
    assert len(detail.messages) == messages

    auth = JwtAuthenticator(sessions=sessions, secret="bench-" + "s" * 40)
    app = create_app(model=FunctionModel(lambda _r: ""), store=store, authenticator=auth)
    headers = {"Authorization": f"Bearer {await auth.issue_token(user)}"}
    url = f"/api/conversations/{conversation_id}"
    first_ms: list[float] = []
    older_ms: list[float] = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        event.listen(engine.sync_engine, "before_cursor_execute", _count)
        for _ in range(ROUNDS):
            start = time.perf_counter()
            first = await client.get(url, headers=headers)
            first_ms.append((time.perf_counter() - start) * 1000)
            first.raise_for_status()
        event.remove(engine.sync_engine, "before_cursor_execute", _count)
        # A page from the middle of the conversation, as scrolling far back asks for.
        middle = str(int(first.json()["older"]) - messages // 2)
        for _ in range(ROUNDS):
            start = time.perf_counter()
            older = await client.get(url, params={"before": middle}, headers=headers)
            older_ms.append((time.perf_counter() - start) * 1000)
            older.raise_for_status()
        switch_ms: list[float] = []
        for i in range(ROUNDS):
            start = time.perf_counter()
            switched = await client.put(
                f"{url}/messages/{again.assistant_message_id}/branch",
                json={"position": 1 + i % 2},
                headers=headers,
            )
            switch_ms.append((time.perf_counter() - start) * 1000)
            switched.raise_for_status()
        # The question halfway up asked again; then back to its first version, whose
        # branch goes on for half the conversation.
        edited = await store.begin_branch(
            user=user,
            conversation_id=conversation_id,
            message_id=halfway,
            kind="edit",
            run_id="bench-edit",
            message="Asked again",
        )
        await store.finish_turn(assistant_message_id=edited.assistant_message_id, record=_answer(1))
        halfway_ms: list[float] = []
        branch_url = f"{url}/messages/{edited.user_message_id}/branch"
        for _ in range(ROUNDS):
            again_edited = await client.put(branch_url, json={"position": 2}, headers=headers)
            again_edited.raise_for_status()
            start = time.perf_counter()
            switched = await client.put(branch_url, json={"position": 1}, headers=headers)
            halfway_ms.append((time.perf_counter() - start) * 1000)
            switched.raise_for_status()
            assert len(switched.json()["messages"]) > 1  # the long branch's newest page
    await engine.dispose()

    return {
        "bench": "conversation_load",
        "database": _backend(database_url),
        "messages": messages,
        "page_messages": len(first.json()["messages"]),
        "first_page_http_ms_median": round(statistics.median(first_ms), 2),
        "first_page_http_ms_max": round(max(first_ms), 2),
        "first_page_bytes": len(first.content),
        "older_page_http_ms_median": round(statistics.median(older_ms), 2),
        "statements_per_page": len(statements) // ROUNDS,
        "switch_version_http_ms_median": round(statistics.median(switch_ms), 2),
        "switch_halfway_http_ms_median": round(statistics.median(halfway_ms), 2),
        "all_messages_store_ms_median": round(statistics.median(store_ms), 2),
        "rounds": ROUNDS,
        "target_first_page_ms": 30,
        "target_met": statistics.median(first_ms) < 30,
    }


def _backend(database_url: str) -> str:
    return display_url(database_url).split(":", 1)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", help="default: a SQLite file in a temporary directory")
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        print(json.dumps(asyncio.run(_run(url, args.messages))))


if __name__ == "__main__":
    main()
