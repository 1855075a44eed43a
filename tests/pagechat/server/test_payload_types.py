"""`GET /api/payload-types`: every payload type the app declares, with its schema and how each
page accepts it — what the web UI's schema card renders a payload with no card of its own by."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from pagechat.chat.service import ModelSource
from pagechat.pages import ActionContext, PayloadConfig, ServerAction, TabConfig, register_page
from pagechat.server import create_app_from_settings
from pagechat.settings import Settings
from pagechat.testing import running_app, tool_call
from pagechat.tools import ToolConfig, ToolContext, ToolResult, register_tool

RECIPE = {
    "title": "Recipe",
    "type": "object",
    "properties": {"name": {"type": "string"}, "servings": {"type": "integer"}},
    "required": ["name"],
}
TIMER = {"type": "object", "properties": {"minutes": {"type": "number"}}}
ANY_INPUT: dict[str, Any] = {"type": "object", "properties": {}}
saved: list[dict[str, Any]] = []


def _save(data: dict[str, Any], ctx: ActionContext) -> dict[str, Any]:
    saved.append(data)
    return {"saved": data["name"]}


def _find(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult(
        "found", payload={"type": "recipe", "data": {"name": "Pancakes", "servings": 4}}
    )


def _nothing(params: dict[str, Any], ctx: ToolContext) -> str:
    return "done"


def create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    register_page(
        "recipes",
        payloads=[
            PayloadConfig(
                type="recipe",
                parse_marker="RECIPE:",
                llm_instructions="Propose a recipe.",
                schema=RECIPE,
                accept_action="save",
            )
        ],
        server_actions=[ServerAction("save", "Save the recipe.", _save)],
        tools=[
            ToolConfig(
                name="find",
                description="Find a recipe.",
                input_schema=ANY_INPUT,
                executor=_find,
                payload_type="recipe",
            )
        ],
        tabs=[
            TabConfig(
                "kitchen",
                tools=(
                    ToolConfig(
                        name="timer",
                        description="Set a timer.",
                        input_schema=ANY_INPUT,
                        executor=_nothing,
                        payload_schema=TIMER,
                        payload_type="timer",
                    ),
                ),
            )
        ],
    )
    register_page(
        "menu",
        payloads=[
            PayloadConfig(type="recipe", parse_marker="RECIPE:", llm_instructions="Show a recipe.")
        ],
    )
    register_tool(
        ToolConfig(
            name="shop",
            description="A shopping list.",
            input_schema=ANY_INPUT,
            executor=_nothing,
            payload_type="shopping_list",
        )
    )
    register_tool(
        ToolConfig(
            name="untyped",
            description="No payload type.",
            input_schema=ANY_INPUT,
            executor=_nothing,
            payload_schema=TIMER,
        )
    )
    return create_app_from_settings(settings, model=model)


async def test_the_declared_payload_types_are_listed_with_their_schemas() -> None:
    async with running_app(create_app) as app:
        listed = await app.http.get("/api/payload-types", headers=app.account.headers)
    assert listed.status_code == 200
    assert listed.json() == {
        "payload_types": {
            "recipe": {
                "schema": RECIPE,
                "title": "Recipe",
                "pages": ["menu", "recipes"],
                "accept_actions": {"recipes": "save"},
            },
            "shopping_list": {"schema": None, "title": None, "pages": [], "accept_actions": {}},
            "timer": {"schema": TIMER, "title": None, "pages": ["recipes"], "accept_actions": {}},
        }
    }


async def test_payload_types_need_a_session() -> None:
    async with running_app(create_app) as app:
        anonymous = await app.http.get("/api/payload-types")
    assert anonymous.status_code == 401


async def test_plain_pagechat_lists_no_payload_types() -> None:
    async with running_app() as app:
        listed = await app.http.get("/api/payload-types", headers=app.account.headers)
    assert listed.json() == {"payload_types": {}}


async def test_the_accept_action_runs_with_a_tool_payloads_data() -> None:
    saved.clear()
    async with running_app(create_app) as app:
        app.script([tool_call("find", {})], ["Here it is."])
        turn = await app.client.chat("pancakes?", page="recipes")
        payload = turn.payload.custom_payload
        assert payload is not None and payload.type == "recipe"
        listed = (await app.http.get("/api/payload-types", headers=app.account.headers)).json()
        action = listed["payload_types"]["recipe"]["accept_actions"]["recipes"]
        ran = await app.http.post(
            "/api/chat/actions",
            headers=app.account.headers,
            json={
                "conversation_id": turn.conversation_id,
                "action": action,
                "data": payload.data,
                "context": {"current_page": "recipes"},
            },
        )
    assert ran.status_code == 200 and ran.json()["ok"] is True
    assert saved == [{"name": "Pancakes", "servings": 4}]
