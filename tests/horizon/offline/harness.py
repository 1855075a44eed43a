"""Stand-ins for Horizon's database-backed tools, and one chat turn through the real loop.

The tools answer from the synthetic PubMed sample and a few fixed streams and reports,
with text shaped the way `horizon.tool_specs` describes; the offline model is what the
tests examine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from horizon.offline import OfflineModel
from horizon.payloads import PUBMED_ARTICLE, PUBMED_SEARCH_RESULTS
from horizon.pubmed import ArticleRecord, rank_records, synthetic_corpus
from horizon.tool_specs import (
    CHART_REPORT,
    CHART_STREAM,
    GET_ARTICLE_DETAILS,
    GET_PUBMED_ARTICLE,
    GET_REPORT_ARTICLES,
    GET_REPORT_SUMMARY,
    GET_STREAM_DETAILS,
    LIST_RESEARCH_STREAMS,
    SEARCH_ARTICLES_IN_REPORTS,
    SEARCH_PUBMED,
)
from pagechat.agent import (
    AgentComplete,
    AgentEvent,
    AgentToolComplete,
    run_agent_loop,
)
from pagechat.events import TextDelta, ToolStart
from pagechat.models import Model, ModelMessage, ToolSpec, UserTurn
from pagechat.pages import ParsedReply, parse_reply, prepare_turn
from pagechat.tools import PRESENT_CHOICES, ToolConfig, ToolContext, ToolResult, chart_payload

CORPUS = synthetic_corpus(60)
BY_PMID = {r.pmid: r for r in CORPUS}

STREAMS: dict[int, dict[str, Any]] = {
    1: {
        "name": "Cancer immunotherapy",
        "purpose": "Checkpoint inhibitors and CAR-T in solid tumours",
        "topics": ["Immune checkpoint inhibitors", "CAR-T cell therapy"],
        "reports": 4,
    },
    2: {
        "name": "Heart failure therapies",
        "purpose": "Drug and device therapy for heart failure",
        "topics": ["SGLT2 inhibitors"],
        "reports": 0,
    },
    3: {
        "name": "Gene editing",
        "purpose": "Base and prime editing in the clinic",
        "topics": ["Base editing", "Prime editing"],
        "reports": 2,
    },
}
REPORT_ID = 42
REPORT_PMIDS = [r.pmid for r in CORPUS if "oncology" in r.abstract][:6]


def _line(record: ArticleRecord) -> str:
    return f"PMID {record.pmid} — {record.title} ({record.journal}, {record.year})"


def _summary(record: ArticleRecord) -> dict[str, Any]:
    return {
        "pmid": record.pmid,
        "title": record.title,
        "authors": list(record.authors),
        "journal": record.journal,
        "year": record.year,
        "doi": record.doi,
    }


def search_pubmed(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    found = rank_records(CORPUS, params["query"], params.get("max_results", 10))
    lines = [f'Found {len(found)} articles for "{params["query"]}":']
    lines += [f"{n}. {_line(r)}" for n, r in enumerate(found, 1)]
    payload = {
        "type": PUBMED_SEARCH_RESULTS,
        "data": {"query": params["query"], "articles": [_summary(r) for r in found]},
    }
    return ToolResult("\n".join(lines), payload)


def _article_text(record: ArticleRecord) -> str:
    return "\n".join(
        [
            f"PMID: {record.pmid}",
            f"Title: {record.title}",
            f"Authors: {', '.join(record.authors)}",
            f"Journal: {record.journal}",
            f"Year: {record.year}",
            f"Abstract: {record.abstract}",
        ]
    )


def get_pubmed_article(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    record = BY_PMID.get(params["pmid"])
    if record is None:
        raise LookupError(f"PMID {params['pmid']} is not in PubMed")
    payload = {"type": PUBMED_ARTICLE, "data": {**_summary(record), "abstract": record.abstract}}
    return ToolResult(_article_text(record), payload)


def get_article_details(params: dict[str, Any], ctx: ToolContext) -> str:
    record = BY_PMID.get(params["pmid"])
    if record is None:
        raise LookupError(f"PMID {params['pmid']} is in none of your reports")
    return f"{_article_text(record)}\nIn reports: {REPORT_ID}"


def list_research_streams(params: dict[str, Any], ctx: ToolContext) -> str:
    lines = [f"You have {len(STREAMS)} research streams:"]
    lines += [f"- ID {i}: {s['name']} — {s['purpose']}" for i, s in STREAMS.items()]
    return "\n".join(lines)


def get_stream_details(params: dict[str, Any], ctx: ToolContext) -> str:
    stream = STREAMS.get(params["stream_id"])
    if stream is None:
        raise LookupError(f"no stream {params['stream_id']}")
    return "\n".join(
        [
            f"Name: {stream['name']}",
            f"Purpose: {stream['purpose']}",
            f"Topics: {', '.join(stream['topics'])}",
            f"Reports: {stream['reports']}",
        ]
    )


def get_report_summary(params: dict[str, Any], ctx: ToolContext) -> str:
    if params["report_id"] != REPORT_ID:
        raise LookupError(f"no report {params['report_id']}")
    return "\n".join(
        [
            f"Report {REPORT_ID} of Cancer immunotherapy",
            "Date: 2025-01-06",
            "Key highlights: Two checkpoint inhibitor trials report longer survival.",
            "Thematic summary: Immunotherapy dominates; radiotherapy combinations are rising.",
        ]
    )


def get_report_articles(params: dict[str, Any], ctx: ToolContext) -> str:
    pmids = REPORT_PMIDS[: params.get("limit", 50)]
    return "\n".join(
        f"{n}. PMID {p} (score {0.95 - n / 20:.2f}, category: Trials) — {BY_PMID[p].title}"
        for n, p in enumerate(pmids, 1)
    )


def search_articles_in_reports(params: dict[str, Any], ctx: ToolContext) -> str:
    found = rank_records([BY_PMID[p] for p in REPORT_PMIDS], params["query"], params.get("limit"))
    if not found:
        return f'No article in your reports matches "{params["query"]}".'
    return "\n".join(f"- {_line(r)} [report {REPORT_ID}]" for r in found)


def _bars(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "mark": "bar",
        "data": {"values": rows},
        "encoding": {
            "x": {"field": "key", "type": "nominal"},
            "y": {"field": "n", "type": "quantitative"},
        },
    }


def chart_report(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    if params["report_id"] != REPORT_ID:
        raise LookupError(f"no report {params['report_id']}")
    text = "\n".join(
        [
            f"Charted report {REPORT_ID} ({len(REPORT_PMIDS)} articles).",
            f"Per category: Trials {len(REPORT_PMIDS)}",
            "Per publication year: 2024 2, 2025 4",
        ]
    )
    return ToolResult(text, chart_payload(_bars([{"key": "Trials", "n": 6}]), title="Report"))


def chart_stream(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    if params["stream_id"] not in STREAMS:
        raise LookupError(f"no stream {params['stream_id']}")
    text = f"Charted stream {params['stream_id']} over 2 reports: 2025-01-06 4, 2025-01-13 6"
    return ToolResult(text, chart_payload(_bars([{"key": "2025-01-06", "n": 4}]), title="Stream"))


def _tool(spec: ToolSpec, executor: Any) -> ToolConfig:
    return ToolConfig(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input_schema,
        executor=executor,
    )


TOOLS: tuple[ToolConfig, ...] = (
    _tool(SEARCH_PUBMED, search_pubmed),
    _tool(GET_PUBMED_ARTICLE, get_pubmed_article),
    _tool(LIST_RESEARCH_STREAMS, list_research_streams),
    _tool(GET_STREAM_DETAILS, get_stream_details),
    _tool(GET_REPORT_SUMMARY, get_report_summary),
    _tool(GET_REPORT_ARTICLES, get_report_articles),
    _tool(SEARCH_ARTICLES_IN_REPORTS, search_articles_in_reports),
    _tool(GET_ARTICLE_DETAILS, get_article_details),
    _tool(CHART_REPORT, chart_report),
    _tool(CHART_STREAM, chart_stream),
    PRESENT_CHOICES,
)


@dataclass(frozen=True)
class Turn:
    """One user turn: what the tools were asked, what streamed, and the parsed reply."""

    events: list[AgentEvent]
    reply: ParsedReply

    @property
    def calls(self) -> list[tuple[str, dict[str, Any]]]:
        # A call whose result is the answer has no start event: its completion says it ran.
        return [
            (e.tool, e.input)
            for e in self.events
            if isinstance(e, ToolStart) or (isinstance(e, AgentToolComplete) and e.in_answer)
        ]

    @property
    def results(self) -> list[AgentToolComplete]:
        return [e for e in self.events if isinstance(e, AgentToolComplete)]

    @property
    def deltas(self) -> list[str]:
        return [e.text for e in self.events if isinstance(e, TextDelta)]

    @property
    def message(self) -> str:
        return self.reply.message

    @property
    def payload(self) -> tuple[str, Any]:
        assert len(self.reply.payloads) == 1, self.reply
        return self.reply.payloads[0].type, self.reply.payloads[0].data


async def converse(
    message: str,
    context: dict[str, Any] | None = None,
    *,
    tools: Sequence[ToolConfig] = TOOLS,
    history: Sequence[ModelMessage] = (),
    max_iterations: int = 5,
    model: Model | None = None,
) -> Turn:
    """Run `message` on the page `context` describes, as the chat service would."""
    context = context or {}
    setup = prepare_turn(context, is_admin=False)
    events = [
        event
        async for event in run_agent_loop(
            model=model or OfflineModel(delay=0),
            system=setup.system_prompt,
            messages=[*history, UserTurn(message)],
            tools=tools,
            context=ToolContext(page_context=context),
            max_iterations=max_iterations,
        )
    ]
    assert isinstance(events[-1], AgentComplete), events[-1]
    model_text = "".join(e.text for e in events if isinstance(e, TextDelta))
    # A result that is the answer (present_choices) ends it, as the chat turn shows it.
    answers = [e.output for e in events if isinstance(e, AgentToolComplete) and e.in_answer]
    reply = parse_reply(model_text, setup)
    if answers:
        reply = replace(reply, message="\n\n".join([reply.message.rstrip(), *answers]).strip())
    return Turn(events, reply)
