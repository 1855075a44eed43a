"""Pages and history of a branched conversation: what each message says of its siblings,
where a page ends, and which cursors are refused, on SQLite and PostgreSQL: the store reads
a page by walking up from its newest message (store/paths.py) and counts siblings that are
on no page at all."""

from __future__ import annotations

import pytest

from pagechat.protocol import MessagePublic
from pagechat.store import AssistantRecord, TurnIds
from pagechat.store.base import BranchKind, InvalidCursor, MessageNotFound
from tests.pagechat.store.conftest import Setup


async def _answered(s: Setup, ids: TurnIds, text: str) -> TurnIds:
    await s.store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content=text, status="complete"),
    )
    return ids


async def _turn(s: Setup, conversation_id: str | None, question: str) -> TurnIds:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=conversation_id, message=question)
    return await _answered(s, ids, question.replace("q", "a", 1))


async def _page(
    s: Setup, conversation_id: str, limit: int, before: str | None = None
) -> tuple[list[tuple[str, int, int]], str | None]:
    """The page's (content, sibling_count, sibling_position) and its older cursor."""
    page = await s.store.get_conversation(
        user=s.alice, conversation_id=conversation_id, limit=limit, before=before
    )
    return [_place(m) for m in page.messages], page.older


def _place(m: MessagePublic) -> tuple[str, int, int]:
    return (m.content, m.sibling_count, m.sibling_position)


async def _branched(s: Setup, cid: str, message_id: str, kind: BranchKind, text: str) -> TurnIds:
    """A new version of a message, answered: a question edited into `text` (its answer is
    `text` with q for a), or an answer regenerated as `text`."""
    edit = kind == "edit"
    ids = await s.store.begin_branch(
        user=s.alice,
        conversation_id=cid,
        message_id=message_id,
        kind=kind,
        run_id=f"{kind}-{text}",
        message=text if edit else None,
    )
    return await _answered(s, ids, text.replace("q", "a", 1) if edit else text)


async def _regenerated_twice(s: Setup) -> str:
    """q0 a0 q1 a1, a1 regenerated as a1b and a1c, back on a1b, then q2 a2 q3 a3 after it."""
    first = await _turn(s, None, "q0")
    cid = first.conversation_id
    second = await _turn(s, cid, "q1")
    for text in ("a1b", "a1c"):
        await _branched(s, cid, second.assistant_message_id, "regenerate", text)
    await s.store.select_branch(
        user=s.alice, conversation_id=cid, message_id=second.assistant_message_id, position=2
    )
    await _turn(s, cid, "q2")
    await _turn(s, cid, "q3")
    return cid


async def test_a_regenerated_answer_first_on_its_page_counts_its_siblings_off_the_page(
    s: Setup,
) -> None:
    cid = await _regenerated_twice(s)

    newest, older = await _page(s, cid, limit=5)
    assert older is not None
    oldest, none = await _page(s, cid, limit=5, before=older)

    assert newest == [("a1b", 3, 2), ("q2", 1, 1), ("a2", 1, 1), ("q3", 1, 1), ("a3", 1, 1)]
    assert oldest == [("q0", 1, 1), ("a0", 1, 1), ("q1", 1, 1)]
    assert none is None


async def test_a_regenerated_answer_last_on_its_page_counts_its_siblings_off_the_page(
    s: Setup,
) -> None:
    cid = await _regenerated_twice(s)

    newest, older = await _page(s, cid, limit=4)
    assert older is not None
    oldest, none = await _page(s, cid, limit=4, before=older)

    assert newest == [("q2", 1, 1), ("a2", 1, 1), ("q3", 1, 1), ("a3", 1, 1)]
    assert oldest == [("q0", 1, 1), ("a0", 1, 1), ("q1", 1, 1), ("a1b", 3, 2)]
    assert none is None


async def _three_first_questions(s: Setup) -> str:
    """q0 a0 q1 a1; the first question edited twice (q0b, q0c: three roots), q1b a1b after
    q0b's answer, and back on q0b's branch."""
    first = await _turn(s, None, "q0")
    cid = first.conversation_id
    await _turn(s, cid, "q1")
    second_root = await _branched(s, cid, first.user_message_id, "edit", "q0b")
    await _turn(s, cid, "q1b")
    await _branched(s, cid, first.user_message_id, "edit", "q0c")
    await s.store.select_branch(
        user=s.alice, conversation_id=cid, message_id=second_root.user_message_id, position=2
    )
    return cid


async def test_an_edited_first_question_counts_every_root_on_the_page_that_ends_with_it(
    s: Setup,
) -> None:
    cid = await _three_first_questions(s)

    newest, older = await _page(s, cid, limit=3)
    assert older is not None
    oldest, none = await _page(s, cid, limit=3, before=older)
    whole, _ = await _page(s, cid, limit=50)

    assert newest == [("a0b", 1, 1), ("q1b", 1, 1), ("a1b", 1, 1)]
    assert oldest == [("q0b", 3, 2)]
    assert none is None
    assert whole == [*oldest, *newest]


async def test_switching_back_to_a_version_goes_down_its_newest_children_to_its_end(
    s: Setup,
) -> None:
    # q0 a0 q1 a1, a1 regenerated twice (a1b, a1c) and a0 once (a0b): back on a0, the
    # conversation ends where a0's branch was last written, a1c, not at a1 or a1b.
    first = await _turn(s, None, "q0")
    cid = first.conversation_id
    second = await _turn(s, cid, "q1")
    for text in ("a1b", "a1c"):
        await _branched(s, cid, second.assistant_message_id, "regenerate", text)
    other = await _branched(s, cid, first.assistant_message_id, "regenerate", "a0b")
    assert await _page(s, cid, limit=10) == ([("q0", 1, 1), ("a0b", 2, 2)], None)

    await s.store.select_branch(
        user=s.alice, conversation_id=cid, message_id=other.assistant_message_id, position=1
    )

    assert await _page(s, cid, limit=10) == (
        [("q0", 1, 1), ("a0", 2, 1), ("q1", 1, 1), ("a1c", 3, 3)],
        None,
    )


async def test_a_version_that_does_not_exist_is_not_found_and_changes_nothing(s: Setup) -> None:
    first = await _turn(s, None, "q0")
    cid = first.conversation_id
    await _turn(s, cid, "q1")
    before = await _page(s, cid, limit=10)

    for position in (0, 2):
        with pytest.raises(MessageNotFound):
            await s.store.select_branch(
                user=s.alice,
                conversation_id=cid,
                message_id=first.assistant_message_id,
                position=position,
            )
    elsewhere = await _turn(s, None, "q-elsewhere")
    for message_id in ("no-such-message", elsewhere.assistant_message_id):
        with pytest.raises(MessageNotFound):
            await s.store.select_branch(
                user=s.alice, conversation_id=cid, message_id=message_id, position=1
            )
    assert await _page(s, cid, limit=10) == before


async def test_history_is_the_newest_finished_messages_of_the_branch_it_is_on(s: Setup) -> None:
    cid = await _three_first_questions(s)
    running = await s.store.begin_turn(user=s.alice, conversation_id=cid, message="q2b")

    history = await s.store.history(user=s.alice, conversation_id=cid, limit=3)
    up_to_q2b = await s.store.history(
        user=s.alice, conversation_id=cid, limit=2, leaf_id=running.user_message_id
    )
    everything = await s.store.history(user=s.alice, conversation_id=cid)

    # The running placeholder is left out, and still the newest three are there.
    assert [m.content for m in history] == ["q1b", "a1b", "q2b"]
    assert [m.content for m in up_to_q2b] == ["a1b", "q2b"]
    assert [m.content for m in everything] == ["q0b", "a0b", "q1b", "a1b", "q2b"]


async def test_history_from_a_message_of_another_conversation_is_empty(s: Setup) -> None:
    mine = await _turn(s, None, "q0")
    other = await _turn(s, None, "elsewhere")

    history = await s.store.history(
        user=s.alice,
        conversation_id=mine.conversation_id,
        leaf_id=other.assistant_message_id,
    )

    assert history == []


@pytest.mark.parametrize(
    "cursor",
    [
        "²",  # a digit to str.isdigit, not to int()
        "١",  # ARABIC-INDIC DIGIT ONE: int() takes it, no page gives it
        "9" * 19,  # past a 64-bit integer
        "-1",
        "",
    ],
)
async def test_a_cursor_that_is_not_a_plain_number_a_page_could_give_is_refused(
    s: Setup, cursor: str
) -> None:
    cid = (await _turn(s, None, "q0")).conversation_id

    with pytest.raises(InvalidCursor):
        await s.store.get_conversation(user=s.alice, conversation_id=cid, limit=5, before=cursor)
