"""Typed tools: a function's signature is the tool's input, its docstring the description,
its `Payload` return the card — through real turns where the model is involved."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Iterator
from typing import Annotated, Any, Literal

import pytest
from fastapi import FastAPI
from pydantic import AfterValidator, Field

from pagechat.apps import AppFactory
from pagechat.models import ToolResultsTurn
from pagechat.pages import register_page
from pagechat.payloads import Payload
from pagechat.protocol import PayloadErrorData, ToolProgressEvent
from pagechat.server import ModelSource, create_app_from_settings
from pagechat.settings import Settings
from pagechat.testing import ScriptedModel, read_all, running_app, tool_call
from pagechat.tools import (
    ToolConfig,
    ToolContext,
    ToolProgress,
    ToolResult,
    execute_tool,
    function_tool,
    tool,
)


class Hits(Payload):
    payload_type = "hits"

    query: str
    total: int = Field(ge=0)


def _even(value: int) -> int:
    if value % 2:
        raise ValueError("must be even")
    return value


def _page_with(*tools: ToolConfig) -> AppFactory:
    """An app with one page, "desk", offering `tools`."""

    def build(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
        register_page("desk", instructions="Answer briefly.", tools=tools)
        return create_app_from_settings(settings, model=model)

    return build


def _results(model: ScriptedModel) -> list[tuple[str, bool]]:
    """The tool results the model was sent, in order."""
    last = model.requests[-1].messages
    return [
        (r.content, r.is_error) for m in last if isinstance(m, ToolResultsTurn) for r in m.results
    ]


async def _run(config: ToolConfig, params: dict[str, Any]) -> list[ToolProgress | ToolResult]:
    return [item async for item in execute_tool(config, params, ToolContext(user_id="u1"))]


def test_the_input_schema_comes_from_the_signature_without_the_context() -> None:
    @tool
    def count_hits(
        query: Annotated[str, Field(description="What to look for.", min_length=1)],
        ctx: ToolContext,
        context: ToolContext | None,
        source: Literal["local", "pubmed"] = "local",
        limit: int = 10,
        since: int | None = None,
    ) -> Hits:
        """Count the articles that match."""
        return Hits(query=query, total=0)

    assert count_hits.input_schema == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for.", "minLength": 1},
            "source": {"type": "string", "enum": ["local", "pubmed"], "default": "local"},
            "limit": {"type": "integer", "default": 10},
            "since": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        },
        "required": ["query"],
        "additionalProperties": False,
    }


def test_the_description_is_the_cleaned_docstring_and_the_name_the_functions() -> None:
    @tool
    def count_hits(query: str) -> str:
        """Count the articles that match.

        Counts only: it lists nothing.
        """
        return "0"

    assert count_hits.name == "count_hits"
    assert (
        count_hits.description == "Count the articles that match.\n\nCounts only: it lists nothing."
    )


def test_options_set_the_configs_fields_and_function_tool_is_the_same_tool() -> None:
    def count(query: str) -> str:
        """Count the articles that match."""
        return "0"

    options: dict[str, Any] = {
        "name": "count_hits",
        "description": "Count them.",
        "timeout": 5.0,
        "required_role": "admin",
        "requires_approval": True,
        "approval_reason": "Counts online.",
        "result_is_answer": True,
    }
    decorated = tool(**options)(count)
    built = function_tool(count, **options)

    for config in (decorated, built):
        assert {k: getattr(config, k) for k in options} == options
        assert config.input_schema == decorated.input_schema


def test_a_function_without_a_docstring_or_description_is_refused() -> None:
    def count(query: str) -> str:
        return "0"

    with pytest.raises(TypeError, match="needs a description"):
        tool(count)
    assert tool(description="Count the articles.")(count).description == "Count the articles."


def test_an_annotation_that_cannot_be_resolved_is_refused_at_once() -> None:
    class Local(Payload):
        payload_type = "local"

    def make() -> Local:
        """Make one."""
        return Local()

    with pytest.raises(TypeError, match="'Local' is not defined"):
        tool(make)


def test_star_parameters_are_refused() -> None:
    def count(*queries: str) -> str:
        """Count."""
        return "0"

    with pytest.raises(TypeError, match=r"\*queries"):
        tool(count)


def test_the_payload_schema_and_type_come_from_the_return_annotation() -> None:
    def plain() -> Hits:
        """Hits."""
        return Hits(query="", total=0)

    def optional() -> Hits | None:
        """Hits or none."""
        return None

    async def streamed() -> AsyncIterator[ToolProgress | Hits]:
        """Hits, step by step."""
        yield Hits(query="", total=0)

    def generated() -> Iterator[ToolProgress | Hits]:
        """Hits, step by step."""
        yield Hits(query="", total=0)

    def returned() -> Generator[ToolProgress, None, Hits]:
        """Hits at the end."""
        yield ToolProgress()
        return Hits(query="", total=0)

    def text() -> str:
        """No card."""
        return ""

    for function in (plain, optional, streamed, generated, returned):
        made = tool(function)
        assert made.payload_schema == Hits.payload_schema(), function.__name__
        assert made.payload_type == Hits.payload_type
    assert tool(text).payload_schema is None


async def test_a_validator_the_schema_cannot_express_still_refuses_the_call() -> None:
    ran: list[str] = []

    @tool
    def pair(count: Annotated[int, AfterValidator(_even)]) -> str:
        """Make pairs."""
        ran.append("pair")
        return "ok"

    [result] = await _run(pair, {"count": 3})

    assert result == ToolResult(
        "Invalid input for pair: count: Value error, must be even", is_error=True
    )
    assert ran == []


async def test_bad_arguments_are_an_error_the_model_reads_naming_every_bad_field() -> None:
    ran: list[str] = []

    @tool
    def count_hits(query: str, limit: int = 10) -> str:
        """Count the articles that match."""
        ran.append(query)
        return "3"

    async with running_app(_page_with(count_hits)) as app:
        model = app.script(
            [tool_call("count_hits", {"query": 7, "limit": "many", "sort": "new"})], ["Sorry."]
        )
        turn = await app.client.chat("count", page="desk")

    [(told, is_error)] = _results(model)
    assert is_error and told.startswith("Invalid input for count_hits: ")
    assert "query: Input should be a valid string" in told
    assert "limit: Input should be a valid integer" in told
    assert "sort: Extra inputs are not permitted" in told
    assert [e.is_error for e in turn.payload.tool_history] == [True]
    assert ran == []


async def test_a_returned_payload_is_the_card_and_its_data_what_the_model_reads() -> None:
    @tool
    async def count_hits(query: str, ctx: ToolContext) -> Hits:
        """Count the articles that match."""
        return Hits(query=f"{query} for {ctx.user_id is not None}", total=3)

    async with running_app(_page_with(count_hits)) as app:
        model = app.script([tool_call("count_hits", {"query": "CAR-T"})], ["3 articles."])
        turn = await app.client.chat("count", page="desk")

    card = turn.payload.custom_payload
    assert card is not None
    assert (card.type, card.data) == ("hits", {"query": "CAR-T for True", "total": 3})
    assert _results(model) == [('{"query":"CAR-T for True","total":3}', False)]


async def test_a_generator_tool_streams_its_progress_then_its_card() -> None:
    @tool
    async def count_hits(query: str) -> AsyncIterator[ToolProgress | Hits]:
        """Count the articles that match."""
        yield ToolProgress(stage="search", message="Searching", progress=0.5)
        yield Hits(query=query, total=2)

    async with running_app(_page_with(count_hits)) as app:
        app.script([tool_call("count_hits", {"query": "CAR-T"})], ["2 articles."])
        turn = await app.client.chat("count", page="desk")

    progress = [e for e in turn.events if isinstance(e, ToolProgressEvent)]
    assert [(e.tool, e.message, e.progress) for e in progress] == [("count_hits", "Searching", 0.5)]
    card = turn.payload.custom_payload
    assert card is not None and (card.type, card.data) == ("hits", {"query": "CAR-T", "total": 2})


async def test_a_sync_generator_tool_may_return_its_result() -> None:
    @tool
    def count_hits(query: str) -> Generator[ToolProgress, None, Hits]:
        """Count the articles that match."""
        yield ToolProgress(message="Searching")
        return Hits(query=query, total=1)

    *progress, result = await _run(count_hits, {"query": "CAR-T"})

    assert progress == [ToolProgress(message="Searching")]
    assert result == ToolResult('{"query":"CAR-T","total":1}', payload=Hits(query="CAR-T", total=1))


async def test_a_tool_that_needs_approval_runs_with_its_typed_arguments_once_approved() -> None:
    deleted: list[int] = []

    @tool(requires_approval=True)
    def delete_report(report_id: Annotated[int, Field(ge=1)], ctx: ToolContext) -> str:
        """Delete a report. It cannot be undone."""
        deleted.append(report_id)
        return f"Deleted report {report_id}."

    async with running_app(_page_with(delete_report)) as app:
        app.script([tool_call("delete_report", {"report_id": 7})], ["It is gone."])
        paused = (await app.client.chat("delete report 7", page="desk")).frames[-1].event
        assert (paused["type"], paused["reason"], deleted) == (
            "approval_requested",
            "Delete a report.",
            [],
        )
        decided = await app.http.post(
            f"/api/chat/approvals/{paused['approval_id']}",
            json={"decision": "approved"},
            headers=app.account.headers,
        )
        async with app.http.stream(
            "GET", f"/api/chat/runs/{decided.json()['run_id']}/events", headers=app.account.headers
        ) as response:
            frames = await read_all(response)

    assert deleted == [7]
    complete = frames[-1].event
    assert complete["type"] == "complete"
    assert complete["payload"]["tool_history"][0]["output"] == "Deleted report 7."


async def test_a_typed_tools_card_off_its_schema_is_repaired_or_an_error_card() -> None:
    @tool
    def count_hits(total: str) -> Hits | ToolResult:
        """Count the articles that match."""
        # A card built by hand from what a search service sent, not through the model.
        return ToolResult(
            "counted", payload={"type": "hits", "data": {"query": "q", "total": total}}
        )

    async with running_app(_page_with(count_hits)) as app:
        app.script(
            [tool_call("count_hits", {"total": "12"})],
            [tool_call("count_hits", {"total": "-1"})],
            ["Done."],
        )
        turn = await app.client.chat("count", page="desk")

    first, second = (e.payload for e in turn.payload.tool_history)
    assert first is not None and (first.type, first.data) == ("hits", {"query": "q", "total": 12})
    assert second is not None and second.type == "payload_error"
    assert PayloadErrorData.model_validate(second.data).payload_type == "hits"
