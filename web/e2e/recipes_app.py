"""An app the web shell has no screens for, as one from outside this repository would be: a
"recipes" page whose tool returns a recipe payload no card is registered for (the schema card
shows it) and whose payload config names the server action that accepting it runs.

    pagechat serve --app recipes_app:create_app   (from web/e2e)
"""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, Field, HttpUrl

from pagechat.chat.service import ModelSource
from pagechat.pages import ActionContext, PayloadConfig, ServerAction, register_page
from pagechat.protocol import ActionResult
from pagechat.server import create_app_from_settings
from pagechat.settings import Settings
from pagechat.tools import ToolConfig, ToolContext, ToolResult

__all__ = ["SAVED", "Recipe", "create_app"]


class Ingredient(BaseModel):
    """One line of the recipe's ingredients."""

    item: str
    grams: float


class Nutrition(BaseModel):
    """Per serving."""

    kcal: int
    protein_grams: float


class Recipe(BaseModel):
    """A recipe the assistant found."""

    name: str
    servings: int
    source: HttpUrl
    published: date
    ingredients: list[Ingredient]
    steps: list[str] = Field(default_factory=list)
    nutrition: Nutrition | None = None


PANCAKES = Recipe(
    name="Pancakes",
    servings=4,
    source=HttpUrl("https://example.org/recipes/pancakes"),
    published=date(2024, 3, 5),
    ingredients=[Ingredient(item="Flour", grams=250), Ingredient(item="Milk", grams=1500.5)],
    steps=["Whisk everything", "Fry in butter"],
    nutrition=Nutrition(kcal=320, protein_grams=9.5),
)

SAVED: list[Recipe] = []
"""What Accept saved (in memory: the app is a test's)."""


def find_recipe(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult(
        f"Found {PANCAKES.name}.",
        payload={"type": "recipe", "data": PANCAKES.model_dump(mode="json")},
    )


def save_recipe(data: dict[str, Any], ctx: ActionContext) -> ActionResult:
    recipe = Recipe.model_validate(data)
    SAVED.append(recipe)
    return ActionResult(
        action="save_recipe", message=f"Saved {recipe.name} ({len(SAVED)} saved)", data=None
    )


def create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    """The app factory: the recipes page (and a second page, for the shell's nav)."""
    schema = Recipe.model_json_schema()
    register_page(
        "recipes",
        instructions="You find recipes.",
        payloads=[
            PayloadConfig(
                type="recipe",
                parse_marker="RECIPE:",
                llm_instructions="Propose one as RECIPE: {...}",
                schema=schema,
                accept_action="save_recipe",
            )
        ],
        server_actions=[ServerAction("save_recipe", "Save the recipe.", save_recipe, schema)],
        tools=[
            ToolConfig(
                name="find_recipe",
                description="Find a recipe.",
                input_schema={"type": "object", "properties": {"query": {"type": "string"}}},
                executor=find_recipe,
                payload_schema=schema,
                payload_type="recipe",
            )
        ],
    )
    register_page("shopping", instructions="You keep the shopping list.")
    return create_app_from_settings(settings, model=model)
