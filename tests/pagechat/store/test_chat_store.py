"""The `ChatStore` contract, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from pagechat.identity import Principal
from pagechat.protocol import (
    CustomPayload,
    SuggestedAction,
    SuggestedValue,
    ToolHistoryEntry,
    Usage,
)
from pagechat.store import (
    AssistantRecord,
    ConversationNotFound,
)
from pagechat.store.base import InvalidCursor
from tests.pagechat.store.conftest import Setup


def _complete(text: str) -> AssistantRecord:
    return AssistantRecord(content=text, status="complete")


async def _turns(s: Setup, count: int, *, user: Principal | None = None) -> str:
    """A conversation of `count` finished turns; messages are 'q0', 'a0', 'q1', 'a1', ..."""
    conversation_id: str | None = None
    for i in range(count):
        ids = await s.store.begin_turn(
            user=user or s.alice, conversation_id=conversation_id, message=f"q{i}"
        )
        conversation_id = ids.conversation_id
        await s.store.finish_turn(
            assistant_message_id=ids.assistant_message_id, record=_complete(f"a{i}")
        )
    assert conversation_id is not None
    return conversation_id


async def test_first_message_creates_the_conversation_titled_after_it(s: Setup) -> None:
    message = "How do CRISPR base editors avoid double-strand breaks in human cells, and why?"
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message=message, run_id="r1")

    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)

    assert detail.title == "How do CRISPR base editors avoid double-strand breaks in…"
    assert [(m.role, m.content, m.status) for m in detail.messages] == [
        ("user", message, "complete"),
        ("assistant", "", "running"),
    ]
    assert detail.messages[1].run_id == "r1"
    assert [m.id for m in detail.messages] == [ids.user_message_id, ids.assistant_message_id]


async def test_the_user_message_is_kept_while_the_answer_runs(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="hello")

    history = await s.store.history(user=s.alice, conversation_id=ids.conversation_id)

    assert [(m.role, m.content) for m in history] == [("user", "hello")]


async def test_history_is_the_newest_messages_oldest_first(s: Setup) -> None:
    conversation_id = await _turns(s, 6)

    history = await s.store.history(user=s.alice, conversation_id=conversation_id, limit=5)

    assert [m.content for m in history] == ["a3", "q4", "a4", "q5", "a5"]


async def test_a_finished_answer_keeps_every_field_the_ui_renders(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="find papers")
    card = CustomPayload(type="article_list", data={"pmids": ["1", "2"]})
    record = AssistantRecord(
        content="Found two. [[tool:0]]",
        status="complete",
        tool_history=[
            ToolHistoryEntry(
                tool_name="search",
                input={"q": "crispr"},
                output="2 hits",
                tool_use_id="t1",
                payload=card,
            )
        ],
        payloads=[card],
        custom_payload=card,
        suggested_values=[SuggestedValue(label="More", value="show more")],
        suggested_actions=[SuggestedAction(label="Close", action="close_chat", handler="client")],
        usage=Usage(input_tokens=120, output_tokens=30),
        warnings=["context nearly full"],
        context_audit="Page: search results",
    )

    await s.store.finish_turn(assistant_message_id=ids.assistant_message_id, record=record)

    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)
    answer = detail.messages[1]
    assert answer.status == "complete"
    assert answer.content == "Found two. [[tool:0]]"
    assert answer.tool_history == record.tool_history
    assert answer.payloads == [card]
    assert answer.custom_payload == card
    assert answer.suggested_values == record.suggested_values
    assert answer.suggested_actions == record.suggested_actions
    assert answer.usage == Usage(input_tokens=120, output_tokens=30)
    assert answer.warnings == ["context nearly full"]
    assert answer.context_audit == "Page: search results"


async def test_a_stopped_answer_keeps_its_partial_text_marked_cancelled(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="long answer please")

    await s.store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content="The first half", status="cancelled"),
    )

    history = await s.store.history(user=s.alice, conversation_id=ids.conversation_id)
    assert [(m.content, m.status) for m in history] == [
        ("long answer please", "complete"),
        ("The first half", "cancelled"),
    ]


async def test_a_failed_answer_keeps_its_partial_text_and_the_error(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="go")

    await s.store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content="Partial", status="error", error="Rate limited"),
    )

    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)
    assert (detail.messages[1].content, detail.messages[1].status, detail.messages[1].error) == (
        "Partial",
        "error",
        "Rate limited",
    )


async def test_a_recorded_action_joins_the_conversation(s: Setup) -> None:
    conversation_id = await _turns(s, 1)

    await s.store.record_action(
        user=s.alice,
        conversation_id=conversation_id,
        action="apply_schema",
        data={"x": 1},
        result="ok",
    )

    last = (await s.store.history(user=s.alice, conversation_id=conversation_id))[-1]
    assert (last.role, last.content) == ("action", "Applied action apply_schema")
    assert last.custom_payload == CustomPayload(
        type="action_result", data={"action": "apply_schema", "input": {"x": 1}, "result": "ok"}
    )


async def test_conversations_are_listed_by_latest_activity(s: Setup) -> None:
    first = await _turns(s, 1)
    second = await _turns(s, 1)
    await s.store.begin_turn(user=s.alice, conversation_id=first, message="back to the first")

    listing = await s.store.list_conversations(user=s.alice)

    assert [c.id for c in listing.items] == [first, second]
    assert listing.total == 2


async def test_a_conversation_whose_answer_ended_last_is_listed_first(s: Setup) -> None:
    first = await s.store.begin_turn(user=s.alice, conversation_id=None, message="first")
    second = await s.store.begin_turn(user=s.alice, conversation_id=None, message="second")
    for ids in (second, first):
        await s.store.finish_turn(
            assistant_message_id=ids.assistant_message_id, record=_complete("done")
        )

    listing = await s.store.list_conversations(user=s.alice)

    assert [c.id for c in listing.items] == [first.conversation_id, second.conversation_id]


async def test_the_list_is_paginated(s: Setup) -> None:
    made = [await _turns(s, 1) for _ in range(5)]

    page = await s.store.list_conversations(user=s.alice, offset=1, limit=2)

    assert [c.id for c in page.items] == [made[3], made[2]]
    assert (page.total, page.offset, page.limit) == (5, 1, 2)


async def test_a_conversation_can_be_renamed(s: Setup) -> None:
    conversation_id = await _turns(s, 1)

    renamed = await s.store.rename_conversation(
        user=s.alice, conversation_id=conversation_id, title="Base editing"
    )

    assert renamed.title == "Base editing"
    listing = await s.store.list_conversations(user=s.alice)
    assert listing.items[0].title == "Base editing"


async def test_a_deleted_conversation_is_gone(s: Setup) -> None:
    conversation_id = await _turns(s, 2)

    await s.store.delete_conversation(user=s.alice, conversation_id=conversation_id)

    assert (await s.store.list_conversations(user=s.alice)).total == 0
    with pytest.raises(ConversationNotFound):
        await s.store.get_conversation(user=s.alice, conversation_id=conversation_id)


async def test_another_users_conversation_is_not_found_anywhere(s: Setup) -> None:
    conversation_id = await _turns(s, 1)
    bob, cid = s.bob, conversation_id

    with pytest.raises(ConversationNotFound):
        await s.store.begin_turn(user=bob, conversation_id=cid, message="mine now")
    with pytest.raises(ConversationNotFound):
        await s.store.history(user=bob, conversation_id=cid)
    with pytest.raises(ConversationNotFound):
        await s.store.get_conversation(user=bob, conversation_id=cid)
    with pytest.raises(ConversationNotFound):
        await s.store.rename_conversation(user=bob, conversation_id=cid, title="x")
    with pytest.raises(ConversationNotFound):
        await s.store.delete_conversation(user=bob, conversation_id=cid)
    with pytest.raises(ConversationNotFound):
        await s.store.record_action(user=bob, conversation_id=cid, action="a", data={}, result=None)
    assert (await s.store.list_conversations(user=bob)).items == []
    assert len((await s.store.get_conversation(user=s.alice, conversation_id=cid)).messages) == 2


async def test_a_missing_conversation_is_not_found(s: Setup) -> None:
    with pytest.raises(ConversationNotFound):
        await s.store.begin_turn(user=s.alice, conversation_id="nope", message="hi")


def _running(text: str, *, tools: list[ToolHistoryEntry] | None = None) -> AssistantRecord:
    return AssistantRecord(
        content=text,
        status="running",
        tool_history=tools or [],
        usage=Usage(input_tokens=10, output_tokens=3),
    )


async def test_a_checkpoint_shows_the_running_answer_so_far(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q", run_id="r1")
    other = await s.store.begin_turn(user=s.bob, conversation_id=None, message="q2")
    search = ToolHistoryEntry(tool_name="search", input={}, output="2 hits", tool_use_id="t1")

    await s.store.checkpoint_turns(
        {
            ids.assistant_message_id: _running("Found [[tool:0]]", tools=[search]),
            other.assistant_message_id: _running("Hel"),
        }
    )

    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)
    answer = detail.messages[1]
    assert (answer.content, answer.status, answer.run_id) == ("Found [[tool:0]]", "running", "r1")
    assert answer.tool_history == [search]
    mine = await s.store.get_conversation(user=s.bob, conversation_id=other.conversation_id)
    assert mine.messages[1].content == "Hel"
    # A running answer is not history the model sees yet.
    history = await s.store.history(user=s.alice, conversation_id=ids.conversation_id)
    assert [m.role for m in history] == ["user"]


async def test_a_checkpoint_landing_after_the_answer_finished_does_not_bring_back_partial_text(
    s: Setup,
) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q")
    await s.store.finish_turn(
        assistant_message_id=ids.assistant_message_id, record=_complete("Hello world")
    )

    await s.store.checkpoint_turns({ids.assistant_message_id: _running("Hello")})

    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)
    assert [(m.content, m.status) for m in detail.messages[1:]] == [("Hello world", "complete")]


async def test_a_checkpoint_of_a_deleted_conversation_is_quietly_dropped(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q")
    await s.store.delete_conversation(user=s.alice, conversation_id=ids.conversation_id)

    await s.store.checkpoint_turns({ids.assistant_message_id: _running("Hello")})

    assert (await s.store.list_conversations(user=s.alice)).total == 0


async def test_a_long_conversation_comes_in_pages_newest_first(s: Setup) -> None:
    conversation_id = await _turns(s, 6)  # q0 a0 ... q5 a5

    pages: list[list[str]] = []
    before = None
    while True:
        page = await s.store.get_conversation(
            user=s.alice, conversation_id=conversation_id, limit=5, before=before
        )
        pages.append([m.content for m in page.messages])
        if page.older is None:
            break
        before = page.older

    assert pages == [
        ["a3", "q4", "a4", "q5", "a5"],
        ["q1", "a1", "q2", "a2", "q3"],
        ["q0", "a0"],
    ]


async def test_a_page_that_ends_exactly_at_the_first_message_has_no_older_cursor(s: Setup) -> None:
    conversation_id = await _turns(s, 2)

    page = await s.store.get_conversation(user=s.alice, conversation_id=conversation_id, limit=4)

    assert [m.content for m in page.messages] == ["q0", "a0", "q1", "a1"]
    assert page.older is None


async def test_a_cursor_no_page_gave_is_refused(s: Setup) -> None:
    conversation_id = await _turns(s, 1)

    with pytest.raises(InvalidCursor):
        await s.store.get_conversation(
            user=s.alice, conversation_id=conversation_id, limit=5, before="x1"
        )
