"""AiSdkStream: each kind of run event told as UI message stream chunks, read by the AI
SDK's own reader (its chunk schema, then `readUIMessageStream`)."""

from __future__ import annotations

from pagechat.aisdk import DONE, AiSdkStream
from pagechat.events import (
    ApprovalRequested,
    ApprovalResolved,
    Cancelled,
    Complete,
    Error,
    ReasoningDelta,
    ReplyParts,
    RunEvent,
    Status,
    TextDelta,
    ToolComplete,
    ToolStart,
    ToolUpdate,
)
from pagechat.protocol import (
    ChatResponsePayload,
    CustomPayload,
    Source,
    SuggestedAction,
    SuggestedValue,
)
from tests.support.ai_sdk import UiRead, read_ui_stream


def _told(stream: AiSdkStream, events: list[RunEvent]) -> tuple[bytes, UiRead]:
    body = stream.opening() + b"".join(stream.render(i, e) for i, e in enumerate(events, 1))
    read = read_ui_stream(body.decode())
    return body, read


def test_every_kind_of_event_is_a_chunk_the_sdk_reads() -> None:
    stream = AiSdkStream(conversation_id="c1", message_id="m1")
    payload = ChatResponsePayload(
        message="Look.[[tool:0]]Done.",
        suggested_actions=[SuggestedAction(label="Apply", action="apply", handler="server")],
        conversation_id="c1",
        message_id="m1",
        stop_reason="max_tokens",
    )
    body, read = _told(
        stream,
        [
            Status(message="Thinking"),
            TextDelta(text="Look."),
            ToolStart(tool="search", input={"q": "x"}, tool_use_id="t1"),
            ToolUpdate(tool="search", stage="s", message="half", progress=0.5),
            ToolComplete(tool="search", index=0, output="found"),
            TextDelta(text="[[tool:0]]"),
            TextDelta(text="Done."),
            ApprovalResolved(approval_id="a", status="approved"),
            Complete(payload=payload),
        ],
    )
    assert read.error is None, read.error
    assert body.endswith(DONE) and body.count(DONE) == 1
    assert read.message is not None and read.message["id"] == "m1"
    assert [p["text"] for p in read.parts("text")] == ["Look.", "Done."]
    (actions,) = read.parts("data-pagechat-suggested-actions")
    assert actions["data"]["actions"][0]["action"] == "apply"
    assert read.chunks[-1] == {
        "type": "finish",
        "finishReason": "length",
        "messageMetadata": {
            "conversation_id": "c1",
            "message_id": "m1",
            "usage": None,
            "stop_reason": "max_tokens",
        },
    }


def test_reasoning_is_a_reasoning_part_the_sdk_reads_before_the_text() -> None:
    stream = AiSdkStream(conversation_id="c1", message_id="m1")
    payload = ChatResponsePayload(message="Four.", conversation_id="c1", message_id="m1")
    _, read = _told(
        stream,
        [
            Status(message="Thinking"),
            ReasoningDelta(text="Two and two "),
            ReasoningDelta(text="make four."),
            TextDelta(text="Four."),
            Complete(payload=payload),
        ],
    )

    assert read.error is None, read.error
    types = read.types
    start, end = types.index("reasoning-start"), types.index("reasoning-end")
    assert types[start:end] == ["reasoning-start", "reasoning-delta", "reasoning-delta"]
    assert end < types.index("text-start")
    (reasoning,) = read.parts("reasoning")
    assert reasoning["text"] == "Two and two make four."
    assert reasoning["state"] == "done"
    assert [p["text"] for p in read.parts("text")] == ["Four."]


def test_a_stopped_run_ends_with_abort() -> None:
    body, read = _told(AiSdkStream(conversation_id="c1"), [TextDelta(text="Half"), Cancelled()])
    assert read.error is None, read.error
    assert read.types[-3:] == ["text-end", "finish-step", "abort"]
    assert body.endswith(DONE)


def test_an_error_and_an_unsendable_stream_end_with_the_sdks_error() -> None:
    _, read = _told(AiSdkStream(conversation_id="c1"), [Error(message="boom", code="timeout")])
    assert read.types[-1] == "error" and read.chunks[-1]["errorText"] == "boom"
    assert read.error == "boom"  # what useChat's `error` says

    failed = AiSdkStream(conversation_id="c1").failed()
    assert read_ui_stream(failed.decode()).types == ["start", "error"]
    assert failed.endswith(DONE)


def test_a_client_tool_call_ends_the_stream_for_on_tool_call() -> None:
    event = ApprovalRequested(
        approval_id="a1", tool="read_field", input={"field": "title"}, tool_use_id="fe-1"
    )
    _, read = _told(AiSdkStream(conversation_id="c1", frontend_tools=["read_field"]), [event])
    assert read.error is None, read.error
    (tool,) = read.parts("tool-read_field")
    assert tool["state"] == "input-available"
    assert "tool-approval-request" not in read.types


def test_a_resumed_run_leaves_out_the_answer_the_client_holds() -> None:
    stream = AiSdkStream(conversation_id="c1", resumed="approval", resumed_call="t1")
    replay: list[RunEvent] = [
        TextDelta(text="Before."),
        ApprovalResolved(approval_id="a1", status="approved"),
        ToolStart(tool="close", input={}, tool_use_id="t1"),
        ToolUpdate(tool="close", message="closing"),
        ToolComplete(tool="close", index=0, output="closed"),
        TextDelta(text="After."),
    ]
    chunks = [c for e in replay for c in stream.translate(e)]
    assert [c["type"] for c in chunks] == [
        "data-pagechat-progress",
        "tool-output-available",
        "text-start",
        "text-delta",
    ]
    # The decided call is the client's part: its progress and output name it.
    assert chunks[0]["id"] == chunks[0]["data"]["tool_call_id"] == "t1"
    assert chunks[1]["toolCallId"] == "t1"


def test_the_decided_call_is_told_on_the_clients_part_whatever_its_id() -> None:
    # A client that rebuilt the waiting answer after a reload names the call its own way.
    stream = AiSdkStream(conversation_id="c1", resumed="approval", resumed_call="rebuilt-1")
    replay: list[RunEvent] = [
        ApprovalResolved(approval_id="a1", status="approved"),
        ToolStart(tool="close", input={}, tool_use_id="t1"),
        ToolComplete(tool="close", index=0, output="closed"),
    ]
    chunks = [c for e in replay for c in stream.translate(e)]
    assert chunks == [
        {"type": "tool-output-available", "toolCallId": "rebuilt-1", "output": "closed"}
    ]


def test_sources_are_the_sdks_source_parts_each_once_with_its_number() -> None:
    stream = AiSdkStream(conversation_id="c1", message_id="m1")
    prime = Source(id="11", title="Prime editing", url="https://pubmed.ncbi.nlm.nih.gov/11/")
    sample = Source(id="SYN1", title="A sample", detail="PMID SYN1")
    other = Source(id="33", title="Off-target", url="https://pubmed.ncbi.nlm.nih.gov/33/")
    numbered = [
        prime.model_copy(update={"number": 1}),
        sample.model_copy(update={"number": 2}),
        other.model_copy(update={"number": 3}),
    ]
    payload = ChatResponsePayload(
        message="Works [1][3].", conversation_id="c1", message_id="m1", sources=numbered
    )
    _, read = _told(
        stream,
        [
            ToolStart(tool="search", input={"q": "a"}, tool_use_id="t1"),
            ToolComplete(tool="search", index=0, output="2 found", sources=numbered[:2]),
            ToolStart(tool="search", input={"q": "b"}, tool_use_id="t2"),
            # The same source again keeps its number, and is told once.
            ToolComplete(tool="search", index=1, output="2 found", sources=numbered[::2]),
            TextDelta(text="Works [1][3]."),
            Complete(payload=payload),
        ],
    )

    assert read.error is None, read.error
    urls = read.parts("source-url")
    assert [(p["sourceId"], p["url"], p["title"]) for p in urls] == [
        ("11", "https://pubmed.ncbi.nlm.nih.gov/11/", "Prime editing"),
        ("33", "https://pubmed.ncbi.nlm.nih.gov/33/", "Off-target"),
    ]
    assert [p["providerMetadata"]["pagechat"]["number"] for p in urls] == [1, 3]
    (document,) = read.parts("source-document")
    assert (document["sourceId"], document["title"]) == ("SYN1", "A sample")
    assert document["providerMetadata"]["pagechat"]["detail"] == "PMID SYN1"


_NOTE = CustomPayload(type="note", data={"title": "x"})
_TOOL_CARD = CustomPayload(type="facts", data={"n": 1})


def test_the_models_card_and_chips_are_told_as_they_come_and_once() -> None:
    # Regression: they were told only at `finish`, so a stopped or taken-over answer's
    # client never had them; told as they come, the end must not tell them twice.
    stream = AiSdkStream(conversation_id="c1", message_id="m1")
    values = [SuggestedValue(label="more", value="more")]
    payload = ChatResponsePayload(
        message="Here.",
        payloads=[_TOOL_CARD, _NOTE],
        suggested_values=values,
        conversation_id="c1",
        message_id="m1",
    )
    _body, read = _told(
        stream,
        [
            TextDelta(text="Here."),
            ReplyParts(payloads=[_NOTE], suggested_values=values),
            Complete(payload=payload),
        ],
    )
    assert read.error is None, read.error
    cards = [p["data"] for p in read.parts("data-pagechat-payload")]
    assert cards == [_NOTE.model_dump(mode="json"), _TOOL_CARD.model_dump(mode="json")]
    (chips,) = read.parts("data-pagechat-suggested-values")
    assert chips["data"]["values"] == [{"label": "more", "value": "more"}]


def test_a_stopped_answer_keeps_the_card_told_before_the_stop() -> None:
    stream = AiSdkStream(conversation_id="c1", message_id="m1")
    _body, read = _told(
        stream, [TextDelta(text="Here."), ReplyParts(payloads=[_NOTE]), Cancelled()]
    )
    assert [p["data"] for p in read.parts("data-pagechat-payload")] == [
        _NOTE.model_dump(mode="json")
    ]
