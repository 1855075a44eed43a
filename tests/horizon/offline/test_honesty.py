"""An honest offline assistant (issue 35): a deletion goes through the approval card, a
request it cannot do gets a plain "I can't …" with what it can do, and a drafted stream is
named after its subject, never the words around it. Each ask is grown into generated
variants (politeness, punctuation, case) that must read the same way."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from horizon.offline import OfflineModel
from horizon.offline.asks import recognise, subject_of
from horizon.tool_specs import DELETE_REPORT
from pagechat.agent import (
    AgentApprovalRequested,
    AgentComplete,
    AgentEvent,
    LoopResume,
    run_agent_loop,
)
from pagechat.events import TextDelta
from pagechat.models import UserTurn
from pagechat.pages import prepare_turn
from pagechat.tools import ToolConfig, ToolContext

from .harness import REPORT_ID, TOOLS, converse
from .test_phrasings import NEW_STREAM_PAGE, REPORTS_PAGE, STREAMS_PAGE

deleted: list[int] = []


def _delete(params: dict[str, Any], ctx: ToolContext) -> str:
    deleted.append(params["report_id"])
    return f"Deleted report {params['report_id']}."


DELETE_TOOL = ToolConfig(
    name=DELETE_REPORT.name,
    description=DELETE_REPORT.description,
    input_schema=DELETE_REPORT.input_schema,
    executor=_delete,
    requires_approval=True,
)

LEADS = st.sampled_from(["", "please ", "Please, ", "could you ", "Can you ", "hey, ", "ok "])
TAILS = st.sampled_from(["", ".", "?", "!", " please", " please.", " for me", " now"])
CASES = st.sampled_from([str, str.lower, str.capitalize])
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _variant(lead: str, core: str, tail: str, case: Any) -> str:
    return str(case(f"{lead}{core}{tail}"))


async def _turn(
    message: str, context: dict[str, Any], resume: LoopResume | None = None
) -> list[AgentEvent]:
    setup = prepare_turn(context, is_admin=False)
    return [
        event
        async for event in run_agent_loop(
            model=OfflineModel(delay=0),
            system=setup.system_prompt,
            messages=[UserTurn(message)],
            tools=[*TOOLS, DELETE_TOOL],
            context=ToolContext(page_context=context),
            resume=resume,
        )
    ]


DELETIONS = [
    ("delete this report", REPORT_ID),
    ("please delete report 3", 3),
    ("remove this report, I don't need it", REPORT_ID),
    ("get rid of report 7", 7),
    ("I don't need this report anymore, delete it", REPORT_ID),
]


@given(
    lead=LEADS,
    core=st.sampled_from([c for c, _ in DELETIONS]),
    tail=TAILS,
    case=CASES,
)
@FAST
def test_every_way_of_asking_to_delete_reads_as_a_deletion(
    lead: str, core: str, tail: str, case: Any
) -> None:
    ask = recognise(_variant(lead, core, tail, case), "reports")
    assert ask.kind == "delete_report"


async def test_a_deletion_waits_for_approval_and_says_what_happened() -> None:
    for message, report_id in DELETIONS:
        events = await _turn(message, REPORTS_PAGE)
        pause = events[-1]
        assert isinstance(pause, AgentApprovalRequested), (message, events[-1])
        assert (pause.tool, pause.input) == ("delete_report", {"report_id": report_id})
        assert deleted == []
        approved = await _turn(message, REPORTS_PAGE, LoopResume(pause.state, approved=True))
        assert isinstance(approved[-1], AgentComplete)
        text = "".join(e.text for e in approved if isinstance(e, TextDelta))
        assert f"Deleted report {report_id}" in text
        assert deleted == [report_id]
        deleted.clear()
        denied = await _turn(message, REPORTS_PAGE, LoopResume(pause.state, approved=False))
        text = "".join(e.text for e in denied if isinstance(e, TextDelta))
        assert f"I did not delete report {report_id}: you did not approve it." in text
        assert deleted == []


async def test_deleting_something_else_is_a_plain_cant() -> None:
    turn = await converse("delete stream 2", STREAMS_PAGE, tools=[*TOOLS, DELETE_TOOL])
    assert turn.calls == []
    assert turn.message.startswith("I can't delete streams. On this page I can: list my streams")


UNSUPPORTED: list[tuple[str, dict[str, Any], str]] = [
    ("email me this report", REPORTS_PAGE, "I can't email you this report."),
    ("export this report to PDF", REPORTS_PAGE, "I can't export this report to PDF."),
    ("translate the abstract into French", REPORTS_PAGE, "I can't translate the abstract"),
    ("share my streams with my team", STREAMS_PAGE, "I can't share your streams with your team"),
    ("Write me a sonnet about the sea", STREAMS_PAGE, "I can't write you a sonnet about the sea."),
    ("rename this stream", NEW_STREAM_PAGE, "I can't rename this stream."),
]


async def test_what_it_cannot_do_gets_a_plain_cant_and_what_it_can() -> None:
    for message, context, start in UNSUPPORTED:
        turn = await converse(message, context, tools=[*TOOLS, DELETE_TOOL])
        assert turn.calls == [], message
        assert turn.reply.payloads == [], message
        assert turn.message.startswith(start), (message, turn.message)
        assert "On this page I can: " in turn.message


@given(lead=LEADS, core=st.sampled_from([m for m, _, _ in UNSUPPORTED]), tail=TAILS, case=CASES)
@FAST
def test_every_way_of_asking_the_impossible_is_unsupported(
    lead: str, core: str, tail: str, case: Any
) -> None:
    ask = recognise(_variant(lead, core, tail, case), "reports")
    assert ask.kind == "unsupported"
    assert not ask.query.lower().startswith(("please", "could", "can you", "hey", "ok "))


FRAMES = st.sampled_from(
    [
        "Could you fill in a starting point for a stream on {}?",
        "set up a stream on {}",
        "draft a stream about {}",
        "start a new stream for {}",
        "I want to monitor {}",
        "build me a template for a research stream about {}",
        "suggest a starting point for a stream covering {}",
    ]
)
SUBJECTS = st.sampled_from(
    ["long COVID", "antibiotic resistance", "gene therapy", "sepsis in children", "obesity"]
)


@given(frame=FRAMES, subject=SUBJECTS)
@FAST
def test_a_drafts_subject_is_the_subject_not_the_wording(frame: str, subject: str) -> None:
    assert subject_of(frame.format(subject)) == subject


async def test_a_stream_on_long_covid_is_about_long_covid() -> None:
    context = {"current_page": "new_stream", "stream": {"name": "", "purpose": ""}}
    turn = await converse("Could you fill in a starting point for a stream on long COVID?", context)
    kind, data = turn.payload
    assert kind == "stream_template"
    assert data["name"] == "Long COVID"
    names = " ".join(t["name"] for t in data["topics"]).lower()
    assert "starting point" not in names and "could" not in names
    assert "long covid" in names
