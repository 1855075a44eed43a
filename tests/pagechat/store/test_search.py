"""Conversation search: the full-text indexes of SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import cast

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Table, insert, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from pagechat.identity import Principal
from pagechat.store import AssistantRecord, SqlChatStore, create_engine, create_sessionmaker
from pagechat.store.migrate import alembic_config, upgrade_async
from pagechat.store.read_text import snippet_of
from pagechat.store.search import fts5_match, search_terms
from pagechat.store.tables import User, utcnow
from pagechat.store.users import create_user, principal_of
from pagechat.tools import choices_block
from pagechat.tools.choices import choices_as_text
from tests.pagechat.store.conftest import Setup


async def _conversation(s: Setup, question: str, answer: str, *, bob: bool = False) -> str:
    user = s.bob if bob else s.alice
    ids = await s.store.begin_turn(user=user, conversation_id=None, message=question)
    await s.store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content=answer, status="complete"),
    )
    return ids.conversation_id


async def _found(s: Setup, query: str, *, bob: bool = False) -> list[str]:
    hits = await s.store.search_conversations(
        user=s.bob if bob else s.alice, terms=search_terms(query)
    )
    return [h.conversation.id for h in hits]


async def test_words_of_messages_find_their_conversation(s: Setup) -> None:
    crispr = await _conversation(
        s, "Tell me about base editing", "CRISPR base editors fix point mutations."
    )
    heart = await _conversation(s, "SGLT2 and heart failure", "They cut hospitalisation.")

    assert await _found(s, "mutations") == [crispr]
    assert await _found(s, "hospitalisation") == [heart]
    assert await _found(s, "editors crispr") == [crispr]
    assert await _found(s, "crispr heart") == []


async def test_a_word_matches_as_a_prefix_and_in_any_case(s: Setup) -> None:
    crispr = await _conversation(s, "Base editing", "CRISPR base editors fix point mutations.")

    assert await _found(s, "MUTAT") == [crispr]
    assert await _found(s, "edit") == [crispr]
    assert await _found(s, "utations") == []


async def test_the_title_is_searched_and_a_rename_is_found(s: Setup) -> None:
    conversation = await _conversation(s, "hello", "hi")

    await s.store.rename_conversation(
        user=s.alice, conversation_id=conversation, title="Melanoma reading list"
    )

    assert await _found(s, "melanoma") == [conversation]
    hits = await s.store.search_conversations(user=s.alice, terms=["melanoma"])
    assert hits[0].snippet == "Melanoma reading list" and hits[0].message_id is None
    await s.store.rename_conversation(user=s.alice, conversation_id=conversation, title="Other")
    assert await _found(s, "melanoma") == []


async def test_the_hit_names_the_newest_matching_message_with_a_snippet(s: Setup) -> None:
    conversation = await _conversation(s, "first question", "An answer about insulin pumps.")
    ids = await s.store.begin_turn(
        user=s.alice, conversation_id=conversation, message="More on insulin please"
    )
    await s.store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content="ok", status="complete"),
    )

    [hit] = await s.store.search_conversations(user=s.alice, terms=["insulin"])

    assert hit.message_id == ids.user_message_id
    assert hit.snippet == "More on insulin please"


async def test_another_users_conversations_are_never_found(s: Setup) -> None:
    await _conversation(s, "Private notes on glioblastoma", "noted", bob=True)
    mine = await _conversation(s, "glioblastoma trials", "two trials")

    assert await _found(s, "glioblastoma") == [mine]
    assert len(await _found(s, "glioblastoma", bob=True)) == 1
    assert mine not in await _found(s, "glioblastoma", bob=True)


async def test_a_running_answer_is_found_once_it_ends(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="hello")
    await s.store.checkpoint_turns(
        {ids.assistant_message_id: AssistantRecord(content="partial zebrafish", status="running")}
    )
    assert await _found(s, "zebrafish") == []

    await s.store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content="Zebrafish regenerate fins.", status="complete"),
    )

    assert await _found(s, "zebrafish") == [ids.conversation_id]
    assert await _found(s, "partial") == []


async def test_a_deleted_conversation_is_no_longer_found(s: Setup) -> None:
    conversation = await _conversation(s, "Notes on sepsis", "fluids first")

    await s.store.delete_conversation(user=s.alice, conversation_id=conversation)

    assert await _found(s, "sepsis") == []
    assert await _found(s, "fluids") == []


@pytest.mark.parametrize(
    "query",
    ['"', "*", "a OR b", "NEAR(a b)", "title:x", "x AND NOT y", "^start", "(", "a & b | !c", "'"],
)
async def test_search_syntax_is_read_as_plain_words(s: Setup, query: str) -> None:
    await _conversation(s, "a b c", "x y start title")

    hits = await s.store.search_conversations(user=s.alice, terms=search_terms(query))

    assert all(h.conversation.title for h in hits)


def test_terms_are_the_distinct_words_lower_cased_and_bounded() -> None:
    assert search_terms('  "CRISPR"* OR crispr NEAR(base) ') == ["crispr", "or", "near", "base"]
    assert search_terms("!!! ***") == []
    assert len(search_terms(" ".join(f"w{i}" for i in range(30)))) == 8


def test_a_snippet_is_the_text_around_the_first_match_on_one_line() -> None:
    text_ = "intro " * 40 + "the\nkey finding [[tool:0]] here " + "outro " * 40
    cut = snippet_of(text_, ["finding"])
    assert cut.startswith("…") and cut.endswith("…")
    assert "key finding here" in cut and "[[tool" not in cut


async def test_a_snippet_shows_choices_as_their_question_and_options(s: Setup) -> None:
    block = choices_block(
        "What should I do?",
        [
            {"label": "List streams", "value": "List my streams"},
            {"label": "Search PubMed", "value": "Search PubMed for CRISPR"},
        ],
    )
    await _conversation(s, "hello", f"I can do a few things.\n\n{block}")

    [hit] = await s.store.search_conversations(user=s.alice, terms=["streams"])

    assert hit.snippet.endswith("What should I do? List streams · Search PubMed")
    assert not any(c in hit.snippet for c in '{}"`')


async def test_words_of_a_choices_blocks_json_or_a_tool_marker_find_nothing(s: Setup) -> None:
    # Regression: "label" and "value" (the block's JSON keys) found every answer with choices.
    block = choices_block("Which trial?", [{"label": "Phase three", "value": "the phase 3"}])
    found = await _conversation(s, "hello", f"Two trials match[[tool:0]].\n\n{block}")

    for hidden in ("label", "value", "options", "question", "tool", "choices"):
        assert await _found(s, hidden) == [], hidden
    for shown in ("which trial", "phase three", "match"):
        assert await _found(s, shown) == [found], shown


async def test_the_search_text_migration_reindexes_choices_written_before_it(
    database_url: str, password_hash: str
) -> None:
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_to_revision("pagechat_0011"))
        sessions = create_sessionmaker(engine)
        async with sessions.begin() as session:
            alice, bob = [
                await _user_of_an_old_schema(session, e, password_hash)
                for e in ("alice@example.com", "bob@example.com")
            ]
        s = Setup(SqlChatStore(sessions), alice, bob)
        block = choices_block("Which trial?", [{"label": "Phase three", "value": "phase 3"}])
        ids = await s.store.begin_turn(user=alice, conversation_id=None, message="hello")
        old = ids.conversation_id
        async with engine.begin() as conn:  # the answer as pagechat_0011's code stored it
            await conn.execute(
                text("UPDATE messages SET content = :c, status = 'complete' WHERE id = :id"),
                {"c": f"Two match.\n\n{block}", "id": ids.assistant_message_id},
            )
        plain = await _conversation(s, "labels", "A label is a value.")
        await s.store.aclose()

        await upgrade_async(engine)

        s = Setup(SqlChatStore(sessions), alice, bob)
        assert await _found(s, "label") == [plain]
        assert await _found(s, "phase three") == [old]
        await s.store.aclose()
    finally:
        await engine.dispose()


def test_an_invalid_choices_block_stays_as_written() -> None:
    text_ = "```choices\nnot json\n```"
    assert choices_as_text(text_) == text_


def _before_search() -> str:
    """The revision just before the search migration: the schema its rows were written in."""
    down = ScriptDirectory.from_config(alembic_config()).get_revision("pagechat_0005").down_revision
    assert isinstance(down, str)
    return down


def _before_search_revision(connection: Connection) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, _before_search())


async def test_the_migration_indexes_the_rows_already_there(
    database_url: str, password_hash: str
) -> None:
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_before_search_revision)
        sessions = create_sessionmaker(engine)
        async with sessions.begin() as session:
            alice = await _user_of_an_old_schema(session, "a@example.com", password_hash)
        store = SqlChatStore(sessions)
        old = await store.begin_turn(user=alice, conversation_id=None, message="Old axolotl notes")
        await store.aclose()
        async with engine.begin() as conn:
            assert await conn.scalar(text("SELECT version_num FROM alembic_version")) == (
                _before_search()
            )

        await upgrade_async(engine)

        store = SqlChatStore(sessions)
        hits = await store.search_conversations(user=alice, terms=["axolotl"])
        assert [h.conversation.id for h in hits] == [old.conversation_id]
        await store.aclose()
    finally:
        await engine.dispose()


async def _index_rows(engine: AsyncEngine, table: str, column: str, owner: str, word: str) -> int:
    """How many rows the FTS5 index itself answers for `owner`'s search of `word`."""
    async with engine.connect() as conn:
        count = await conn.scalar(
            text(f"SELECT count(*) FROM {table} WHERE {table} MATCH :match"),
            {"match": fts5_match(column, owner, [word])},
        )
    assert isinstance(count, int)
    return count


async def _sqlite_setup(url: str, password_hash: str) -> tuple[AsyncEngine, Setup]:
    engine = create_engine(url)
    await upgrade_async(engine)
    sessions = create_sessionmaker(engine)
    async with sessions.begin() as session:
        alice, bob = [
            principal_of(await create_user(session=session, email=e, password_hash=password_hash))
            for e in ("alice@example.com", "bob@example.com")
        ]
    return engine, Setup(SqlChatStore(sessions), alice, bob)


async def test_the_index_matches_only_the_owners_messages_and_titles(
    sqlite_url: str, password_hash: str
) -> None:
    engine, s = await _sqlite_setup(sqlite_url, password_hash)
    try:
        for i in range(3):
            await _conversation(s, f"Glioblastoma {i}", "glioblastoma again", bob=True)
        mine = await _conversation(s, "glioblastoma trials", "Two glioblastoma trials.")

        # The MATCH itself answers with Alice's question and answer, not Bob's six.
        assert await _index_rows(engine, "messages_fts", "content", s.alice.id, "gliob") == 2
        assert await _index_rows(engine, "conversations_fts", "title", s.alice.id, "gliob") == 1
        assert await _index_rows(engine, "messages_fts", "content", s.bob.id, "gliob") == 6
        assert await _found(s, "glioblastoma") == [mine]
        # An owner's id is no word of a message.
        assert await _found(s, s.alice.id[:8]) == []
    finally:
        await s.store.aclose()
        await engine.dispose()


async def _user_of_an_old_schema(
    session: AsyncSession, email: str, password_hash: str
) -> Principal:
    # The columns every revision has: the ORM's insert names columns added later
    # (users.disabled_at, pagechat_0009) that a database at an older revision lacks.
    user_id = uuid.uuid4().hex
    await session.execute(
        insert(cast(Table, User.__table__)).values(
            id=user_id,
            email=email,
            password_hash=password_hash,
            is_admin=False,
            created_at=utcnow(),
        )
    )
    return Principal(id=user_id, email=email)


def _to_revision(revision: str) -> Callable[[Connection], None]:
    def run(connection: Connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)

    return run


async def test_the_owner_scoped_index_is_built_from_the_rows_already_there(
    database_url: str, password_hash: str
) -> None:
    """Rows written at pagechat_0005 are found after pagechat_0007, by their owner only,
    and the index follows what happens to them afterwards."""
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_to_revision("pagechat_0005"))
        sessions = create_sessionmaker(engine)
        async with sessions.begin() as session:
            alice, bob = [
                await _user_of_an_old_schema(session, e, password_hash)
                for e in ("alice@example.com", "bob@example.com")
            ]
        s = Setup(SqlChatStore(sessions), alice, bob)
        old = await _conversation(s, "Axolotl notes", "Axolotls regrow limbs.")
        await _conversation(s, "Axolotl too", "axolotl", bob=True)
        await s.store.aclose()

        await upgrade_async(engine)

        s = Setup(SqlChatStore(sessions), alice, bob)
        assert await _found(s, "axolotl") == [old]
        new = await _conversation(s, "More axolotl", "Still regrowing.")
        assert await _found(s, "axolotl") == [new, old]
        assert await _found(s, "regrow") == [new, old]
        await s.store.delete_conversation(user=alice, conversation_id=old)
        assert await _found(s, "axolotl") == [new]
        assert len(await _found(s, "axolotl", bob=True)) == 1
        if engine.dialect.name == "sqlite":
            assert await _index_rows(engine, "messages_fts", "content", alice.id, "axolotl") == 1
            assert await _index_rows(engine, "messages_fts", "content", bob.id, "axolotl") == 2
        await s.store.aclose()
    finally:
        await engine.dispose()
