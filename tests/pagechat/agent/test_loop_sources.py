"""A tool's sources reach the real Anthropic and OpenAI SDKs numbered after its result, and
the system prompt tells the model to cite them as [n] (local fakes of both APIs)."""

from __future__ import annotations

from typing import Any

from pagechat.agent import AgentToolComplete, run_agent_loop
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.base import Model, UserTurn
from pagechat.models.openai import OpenAIModel
from pagechat.models.retry import RetryPolicy
from pagechat.pages.prompt import FORMAT_RULES
from pagechat.tools import Source, ToolConfig, ToolContext, ToolResult
from tests.fakes.anthropic_server import FakeAnthropic, ToolUse, reply
from tests.fakes.openai_server import FakeOpenAI, text, tool_call, tool_calls

_FOUND = {
    "prime": [
        Source(id="11", title="Prime editing", url="https://pubmed.ncbi.nlm.nih.gov/11/"),
        Source(id="22", title="Base editing", detail="Nature, 2021"),
    ],
    "base": [Source(id="22", title="Base editing"), Source(id="33", title="Off-target")],
}
# What the model reads after each result: the sources numbered in the answer, once each.
_FIRST = (
    "2 articles, as in [3] of a review.\n\n"
    "Sources (cite a statement that uses one as [n], its number here):\n"
    "[1] Prime editing. https://pubmed.ncbi.nlm.nih.gov/11/\n"
    "[2] Base editing. Nature, 2021"
)
_SECOND = (
    "2 articles, as in [3] of a review.\n\n"
    "Sources (cite a statement that uses one as [n], its number here):\n"
    "[2] Base editing. Nature, 2021\n"
    "[3] Off-target"
)


def _search() -> ToolConfig:
    def search(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult("2 articles, as in [3] of a review.", sources=_FOUND[params["q"]])

    return ToolConfig(
        name="search",
        description="Search articles",
        input_schema={"type": "object", "properties": {"q": {"type": "string"}}},
        executor=search,
    )


async def _run(model: Model) -> list[AgentToolComplete]:
    try:
        events = [
            event
            async for event in run_agent_loop(
                model=model,
                system=f"You help.\n\n{FORMAT_RULES}",
                messages=[UserTurn("Find editing papers")],
                tools=[_search()],
                context=ToolContext(),
                retry=RetryPolicy(max_attempts=1),
            )
        ]
    finally:
        await model.aclose()
    return [e for e in events if isinstance(e, AgentToolComplete)]


async def test_anthropic_reads_each_results_sources_numbered_and_is_told_to_cite_them() -> None:
    with FakeAnthropic() as fake:
        fake.add(reply(ToolUse("search", {"q": "prime"}, id="toolu_1")))
        fake.add(reply(ToolUse("search", {"q": "base"}, id="toolu_2")))
        fake.add(reply("Prime editing works [1]; base editing too [2][3]."))
        model = AnthropicModel("claude-test", api_key="sk-ant-test", base_url=fake.base_url)
        done = await _run(model)
        first, second = fake.requests[1], fake.requests[2]

    assert [[(s.id, s.number) for s in d.sources] for d in done] == [
        [("11", 1), ("22", 2)],
        [("22", 2), ("33", 3)],
    ]
    [result] = [b for b in first["messages"][-1]["content"] if b["type"] == "tool_result"]
    assert result["content"] == _FIRST
    [result] = [b for b in second["messages"][-1]["content"] if b["type"] == "tool_result"]
    assert result["content"] == _SECOND
    # One string: the loop here is given no stable prefix to cache.
    system = fake.requests[0]["system"]
    assert "cite it right after the statement as [n]" in system


async def test_openai_reads_each_results_sources_numbered_and_is_told_to_cite_them() -> None:
    async with FakeOpenAI(
        [
            tool_calls(tool_call("search", {"q": "prime"}, id="call_1")),
            tool_calls(tool_call("search", {"q": "base"}, id="call_2")),
            text("Prime editing works [1]; base editing too [2][3]."),
        ]
    ) as fake:
        model = OpenAIModel("gpt-test", api_key="sk-test", base_url=fake.base_url)
        done = await _run(model)
        first, second = fake.requests[1].body, fake.requests[2].body

    assert [[s.number for s in d.sources] for d in done] == [[1, 2], [2, 3]]
    assert first["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": _FIRST}
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_2", "content": _SECOND}
    assert "cite it right after the statement as [n]" in first["messages"][0]["content"]
