"""The notes app through the real server, with pagechat.testing: what the user sees."""

from __future__ import annotations

from pagechat.protocol import ToolCompleteEvent
from pagechat.testing import assert_event_types, running_app, tool_call

APP = "notes.app:create_app"


async def test_a_saved_note_comes_back_as_a_note_card() -> None:
    async with running_app(APP) as app:
        app.script(
            [tool_call("save_note", {"title": "Milk", "body": "Buy two litres"})], ["Saved it."]
        )
        turn = await app.client.chat("remember to buy milk", page="notes")

    card = turn.payload.custom_payload
    assert card is not None and card.type == "note"
    assert card.data == {"title": "Milk", "body": "Buy two litres"}
    assert turn.payload.message == "[[tool:0]]Saved it."
    assert_event_types(
        [f for f in turn.frames if f.type != "status"],
        ["tool_start", "tool_complete", "text_delta", "complete"],
    )


async def test_a_note_the_model_proposes_is_a_card_and_never_marker_text() -> None:
    async with running_app(APP) as app:
        app.script(['A draft for you. NOTE: {"title": "Call Ana", "body": "About Friday"}'])
        turn = await app.client.chat("draft a note to call Ana", page="notes")

    assert "NOTE:" not in turn.text
    assert [(p.type, p.data) for p in turn.payload.payloads or []] == [
        ("note", {"title": "Call Ana", "body": "About Friday"})
    ]


async def test_a_note_without_a_title_is_an_error_the_model_sees() -> None:
    async with running_app(APP) as app:
        model = app.script([tool_call("save_note", {"body": "no title"})], ["Sorry."])
        turn = await app.client.chat("save something", page="notes")

    done = [e for e in turn.events if isinstance(e, ToolCompleteEvent)]
    assert [e.is_error for e in done] == [True]
    assert "title" in str(model.requests[1].messages[-1])


async def test_the_page_name_is_checked() -> None:
    async with running_app(APP) as app:
        turn = await app.client.chat("hi", page="note")

    assert turn.status_code == 400
    assert "notes" in turn.response.json()["known_pages"]
