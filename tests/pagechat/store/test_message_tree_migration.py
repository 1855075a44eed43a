"""pagechat_0003 turns each conversation a database already holds into a chain: nothing
lost, the newest message the active leaf, and the model and a reload see what they did."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alembic import command
from sqlalchemy import Connection, text

from pagechat.identity import Principal
from pagechat.store import SqlChatStore, create_engine, create_sessionmaker, upgrade_async
from pagechat.store.migrate import alembic_config

_T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def _to_0002(connection: Connection) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "pagechat_0002")


def _rows(connection: Connection) -> None:
    """Two users' conversations as the previous schema wrote them (one mid-run)."""
    connection.execute(
        text(
            "INSERT INTO users (id, email, password_hash, is_admin, created_at) VALUES "
            "('u1', 'alice@example.com', 'x', false, :t), ('u2', 'bob@example.com', 'x', false, :t)"
        ),
        {"t": _T0},
    )
    connection.execute(
        text(
            "INSERT INTO conversations (id, owner_id, title, created_at, updated_at) VALUES "
            "('c1', 'u1', 'Base editing', :t, :t), ('c2', 'u2', 'Other', :t, :t), "
            "('c3', 'u1', 'Empty', :t, :t)"
        ),
        {"t": _T0},
    )
    rows = [
        ("m1", "c1", "user", "What is base editing?", "complete", None),
        ("m2", "c1", "assistant", "A precise edit.", "complete", "accepted"),
        ("b1", "c2", "user", "Bob asks", "complete", None),  # interleaved with c1's
        ("m3", "c1", "action", "Applied action save", "complete", None),
        ("m4", "c1", "user", "And prime editing?", "complete", None),
        ("m5", "c1", "assistant", "It was stopp", "cancelled", None),
    ]
    for i, (mid, cid, role, content, status, decision) in enumerate(rows):
        connection.execute(
            text(
                "INSERT INTO messages (id, conversation_id, role, content, status, created_at, "
                "payload, input_tokens, output_tokens, payload_decision) VALUES "
                "(:id, :cid, :role, :content, :status, :t, :payload, 3, 4, :decision)"
            ),
            {
                "id": mid,
                "cid": cid,
                "role": role,
                "content": content,
                "status": status,
                "t": _T0 + timedelta(seconds=i),
                "payload": '{"custom_payload": {"type": "card", "data": {"n": 1}}}'
                if mid == "m2"
                else "{}",
                "decision": decision,
            },
        )


async def test_existing_conversations_become_chains_with_all_their_data(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_to_0002)
            await conn.run_sync(_rows)

        await upgrade_async(engine)

        store = SqlChatStore(create_sessionmaker(engine))
        alice = Principal("u1", "alice@example.com")
        detail = await store.get_conversation(user=alice, conversation_id="c1")
        history = await store.history(user=alice, conversation_id="c1")
        empty = await store.get_conversation(user=alice, conversation_id="c3")
    finally:
        await engine.dispose()

    messages = detail.messages
    assert [m.id for m in messages] == ["m1", "m2", "m3", "m4", "m5"]
    assert [m.parent_id for m in messages] == [None, "m1", "m2", "m3", "m4"]
    assert detail.active_leaf_id == "m5"
    assert all((m.sibling_count, m.sibling_position) == (1, 1) for m in messages)
    assert messages[1].payload_decision == "accepted"
    assert messages[1].custom_payload is not None and messages[1].custom_payload.data == {"n": 1}
    assert messages[4].status == "cancelled" and messages[4].content == "It was stopp"
    assert messages[4].usage is not None and messages[4].usage.output_tokens == 4
    assert messages[0].created_at == _T0
    assert [m.id for m in history] == ["m1", "m2", "m3", "m4", "m5"]
    assert empty.messages == [] and empty.active_leaf_id is None
