"""The wire contract between the pagechat server and its clients.

Everything that crosses HTTP is defined here, once. The web UI's TypeScript
types are generated from the JSON Schema these models produce
(`pagechat schema`), so a field added here reaches the browser by regeneration,
never by hand-copying. New fields must be optional: old clients ignore them.

This module depends on nothing but pydantic.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    model_validator,
)

__all__ = [
    "AI_SDK_DATA_PARTS",
    "MAX_ATTACHMENTS",
    "MAX_JSON_DEPTH",
    "MAX_JSON_VALUES",
    "MAX_MESSAGE_CHARS",
    "PAYLOAD_ERROR",
    "TOOL_MARKER",
    "ActionRequest",
    "ActionResult",
    "AiSdkDataParts",
    "AiSdkMessageMetadata",
    "ApprovalDecisionRequest",
    "ApprovalDecisionResult",
    "ApprovalKind",
    "ApprovalPublic",
    "ApprovalRequestedEvent",
    "ApprovalResolvedEvent",
    "ApprovalStatus",
    "AttachmentRef",
    "BranchSelectRequest",
    "BranchTurnRequest",
    "CancelledEvent",
    "ChatRequest",
    "ChatResponsePayload",
    "ChoiceOptionData",
    "ChoicesData",
    "CompleteEvent",
    "ConversationDetail",
    "ConversationList",
    "ConversationPublic",
    "ConversationSearchHit",
    "ConversationSearchResults",
    "ConversationUpdate",
    "CustomPayload",
    "EditRequest",
    "EntityChange",
    "ErrorEvent",
    "ErrorResponse",
    "FeedbackPublic",
    "FeedbackRating",
    "FeedbackRequest",
    "LoginRequest",
    "MessagePublic",
    "MessageStatus",
    "PayloadDecision",
    "PayloadDecisionRequest",
    "PayloadErrorData",
    "Reasoning",
    "ReasoningEvent",
    "ReplyPartsEvent",
    "Source",
    "StatusData",
    "StatusEvent",
    "StreamEvent",
    "SuggestedAction",
    "SuggestedActionsData",
    "SuggestedValue",
    "SuggestedValuesData",
    "TextDeltaEvent",
    "Token",
    "ToolCompleteEvent",
    "ToolHistoryEntry",
    "ToolProgressData",
    "ToolProgressEvent",
    "ToolStartEvent",
    "Usage",
    "UserPublic",
    "json_limit_problem",
    "parse_event",
    "tool_marker",
    "unstorable",
    "wire_schema",
]

TOOL_MARKER = re.compile(r"\[\[tool:(\d+)\]\]")
"""Where a tool call's card stands in an answer's stored text: `[[tool:N]]`, N the call's
position in the turn's `tool_history`. Clients place cards by it; adapters that carry
the calls as parts of their own leave it out."""


def tool_marker(index: int) -> str:
    """The text that places the card of the answer's tool call `index`."""
    return f"[[tool:{index}]]"


MAX_MESSAGE_CHARS = 32_000
"""Longest user message accepted, in characters (a paste of a few pages)."""


class _Model(BaseModel):
    # Defaults are always serialized, so the generated TypeScript marks them required.
    model_config = ConfigDict(extra="ignore", json_schema_serialization_defaults_required=True)


# --- payload pieces -------------------------------------------------------


class SuggestedValue(_Model):
    """A chip the user can click to send `value` as their next message."""

    label: str = Field(min_length=1)
    value: str = Field(min_length=1)


class SuggestedAction(_Model):
    """A button: a client action runs in the browser, a server action on the server."""

    label: str = Field(min_length=1)
    action: str = Field(min_length=1)
    handler: Literal["client", "server"]
    data: dict[str, Any] | None = None
    style: Literal["primary", "secondary", "warning"] | None = None


class CustomPayload(_Model):
    """Structured data for a card, matched by `type` to a UI handler."""

    type: str = Field(min_length=1)
    data: Any = None


PAYLOAD_ERROR = "payload_error"
"""The type of the card that stands in for a payload that could not be shown."""


class PayloadErrorData(_Model):
    """The data of a `payload_error` card: a payload (model-written or a tool's) that was
    not usable even after repair, shown as "couldn't show this proposal" instead of raw JSON."""

    payload_type: str
    """The type the payload claimed (`unknown` when it named none)."""
    reason: str
    """One line for the user."""
    details: str = ""
    """What exactly was wrong and the data as written (clipped), for whoever looks closer."""


ApprovalStatus = Literal["pending", "approved", "denied", "expired"]
"""`expired`: nobody decided in time, which counts as denied."""


ApprovalKind = Literal["approval", "frontend_tool"]
"""What a paused answer waits for: the user's decision on a call (`approval`), or the
result of a call of the client's own tool, which the client runs (`frontend_tool`)."""


class ApprovalPublic(_Model):
    """A tool call that waits (or waited) for the user's approval, or for the client to run
    it (`kind` `frontend_tool`: its result, sent with `tool_use_id`, resumes the answer)."""

    id: str
    kind: ApprovalKind = "approval"
    tool: str
    tool_use_id: str | None = None
    """The model's id of the call: a client's tool result names it."""
    input: dict[str, Any] = Field(default_factory=dict)
    """The validated arguments the tool will run with."""
    reason: str = ""
    """Why the app asks: what the call would do."""
    status: ApprovalStatus = "pending"
    note: str | None = None
    """The user's reason for denying, or why the request lapsed."""
    expires_at: datetime | None = None
    """When an undecided request is denied by itself."""


def _web_url(url: str | None) -> str | None:
    """Only an absolute http(s) URL with a host is a link a source may carry."""
    if url is None:
        return None
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or not rest or rest[0] in "/?#":
        raise ValueError("a source's url must be an absolute http(s) URL")
    if len(url) > 2000 or any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise ValueError("a source's url must be under 2,000 characters, without spaces")
    return url


class Source(_Model):
    """Where part of an answer comes from: a tool result's sources (`ToolResult(sources=)`),
    which the model cites as `[n]` and the tray lists under the answer.

    A tool gives `id`, `title` and, when it has them, `url` (http(s) only), `detail` (a
    short line such as the journal and year) and `snippet` (the passage that matters).
    `number` is the source's citation number in its answer: set by the turn, in the order
    the answer's sources were first returned (the same `id` keeps its number), never by
    the tool."""

    id: str = Field(min_length=1, max_length=200)
    title: str = Field(min_length=1, max_length=500)
    url: Annotated[str | None, AfterValidator(_web_url)] = None
    detail: str = Field(default="", max_length=300)
    snippet: str = Field(default="", max_length=2000)
    number: int | None = Field(default=None, ge=1)


class ToolHistoryEntry(_Model):
    """One tool call of a turn, as `[[tool:N]]` refers to it (N = position)."""

    tool_name: str
    input: dict[str, Any] = Field(default_factory=dict)
    output: str = ""
    is_error: bool = False
    tool_use_id: str | None = None
    payload: CustomPayload | None = None
    approval: ApprovalPublic | None = None
    """For a call that needed approval: the decision (a denied call did not run)."""
    in_answer: bool = False
    """Its result is part of the answer's text, with no card and no `[[tool:N]]` marker
    (`present_choices`: the choices block); the turn ended after it."""
    sources: list[Source] = Field(default_factory=list)
    """The sources the call returned, each with its number in the answer."""


class Reasoning(_Model):
    """The model's reasoning before an answer, as the tray shows it: its text, and how long
    it took (first to last reasoning delta) for "Thought for N s"."""

    text: str
    seconds: float = Field(ge=0)


class Usage(_Model):
    """Tokens a turn consumed, summed over its model calls."""

    input_tokens: int = 0
    """The whole prompt of each call, cached or not."""
    output_tokens: int = 0
    cache_read_tokens: int = 0
    """Of `input_tokens`, read from the provider's prompt cache (billed at a fraction)."""
    cache_write_tokens: int = 0
    """Of `input_tokens`, written to the provider's prompt cache (billed at a premium)."""


class ChatResponsePayload(_Model):
    """The final state of an assistant turn.

    `custom_payload` is the turn's primary payload: the first model-written payload
    (the answer's proposal), else the last tool payload, else — when tools ran —
    `{"type": "tool_history", "data": tool_history}`; never a `payload_error` card.
    `payloads` holds every payload of the turn in order (tool payloads first, then
    model ones), error cards included.
    """

    message: str
    suggested_values: list[SuggestedValue] | None = None
    suggested_actions: list[SuggestedAction] | None = None
    custom_payload: CustomPayload | None = None
    payloads: list[CustomPayload] = Field(default_factory=list)
    tool_history: list[ToolHistoryEntry] = Field(default_factory=list)
    conversation_id: str | None = None
    message_id: str | None = None
    usage: Usage | None = None
    warnings: list[str] = Field(default_factory=list)
    stop_reason: str | None = None
    """Why the model stopped: `end_turn`, or `max_tokens` when the answer was cut off by
    the output limit (the tray says so and offers to continue)."""
    reasoning: Reasoning | None = None
    """The model's reasoning before the answer, as stored with it."""
    sources: list[Source] = Field(default_factory=list)
    """The answer's sources, numbered (`[n]` in `message` cites `number` n), in order."""


# --- the AI SDK's UI message stream (pagechat.aisdk) ------------------------
# What pagechat sends a `useChat` app beside the SDK's own parts: its `data-*` parts and
# its message metadata. Their TypeScript types and guards come from these (gen-types.mjs).


class ToolProgressData(_Model):
    """`data-pagechat-progress` (its part id the tool call's, so it is replaced as the
    tool goes on): a running tool's progress."""

    tool_call_id: str
    tool: str
    stage: str = ""
    message: str = ""
    progress: float | None = None
    """0..1, or null when the tool cannot tell."""


class StatusData(_Model):
    """`data-pagechat-status` (transient: `onData` only): a status line while the model works."""

    message: str


class SuggestedValuesData(_Model):
    """`data-pagechat-suggested-values`: chips the user can click to send their `value`."""

    values: list[SuggestedValue]


class SuggestedActionsData(_Model):
    """`data-pagechat-suggested-actions`: the answer's buttons (client or server actions)."""

    actions: list[SuggestedAction]


class ChoiceOptionData(_Model):
    """One button of a choices block: the label shown and the value sent."""

    label: str
    value: str


class ChoicesData(_Model):
    """`data-pagechat-choices`, one per ```` ```choices ```` block of the answer (its text
    holds the block too): a question and its options."""

    question: str
    options: list[ChoiceOptionData]


class AiSdkDataParts(_Model):
    """Each `data-*` part pagechat sends a `useChat` app, by its name (the part's type
    without `data-`); in TypeScript `UIMessage<AiSdkMessageMetadata, AiSdkDataTypes>`."""

    model_config = ConfigDict(populate_by_name=True)
    progress: ToolProgressData = Field(alias="pagechat-progress")
    status: StatusData = Field(alias="pagechat-status")
    payload: CustomPayload = Field(alias="pagechat-payload")
    """One per payload of the answer, in order (its part id `payload-N`)."""
    suggested_values: SuggestedValuesData = Field(alias="pagechat-suggested-values")
    suggested_actions: SuggestedActionsData = Field(alias="pagechat-suggested-actions")
    choices: ChoicesData = Field(alias="pagechat-choices")


AI_SDK_DATA_PARTS: dict[str, str] = {
    name: field.alias or name for name, field in AiSdkDataParts.model_fields.items()
}
"""The name of each data part (`AiSdkDataParts`' field -> its `data-` name)."""


class AiSdkMessageMetadata(_Model):
    """The message metadata of an answer streamed to a `useChat` app: its ids on `start`,
    and with `finish` its usage and why it stopped."""

    conversation_id: str | None = None
    message_id: str | None = None
    """pagechat's id of the answer (also the `start` part's `messageId`)."""
    usage: Usage | None = None
    stop_reason: str | None = None
    """`end_turn`, `max_tokens` (cut off by the output limit), `tool_calls` (paused for an
    approval or a client's tool), `cancelled` or `error`."""


# --- stream events --------------------------------------------------------


class StatusEvent(_Model):
    """Stream event: a status line to show while the model works."""

    type: Literal["status"] = "status"
    message: str


class TextDeltaEvent(_Model):
    """Stream event: the next piece of the answer's text."""

    type: Literal["text_delta"] = "text_delta"
    text: str


class ReasoningEvent(_Model):
    """Stream event: the next piece of the model's reasoning, shown apart from the answer."""

    type: Literal["reasoning"] = "reasoning"
    text: str


class ReplyPartsEvent(_Model):
    """Stream event: what the model wrote in its answer that is not text, taken out of the
    text as it streamed: a card (`payloads`, as `ChatResponsePayload.payloads` holds the
    model-written ones), suggested values, suggested actions, and warnings about ones it
    dropped. Each event holds what is new since the last; `complete` holds them all. The
    run's log keeps them, so an answer taken over or stopped keeps what the user saw."""

    type: Literal["reply_parts"] = "reply_parts"
    payloads: list[CustomPayload] = Field(default_factory=list)
    suggested_values: list[SuggestedValue] = Field(default_factory=list)
    suggested_actions: list[SuggestedAction] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


class ToolStartEvent(_Model):
    """Stream event: the model called a tool, which starts now."""

    type: Literal["tool_start"] = "tool_start"
    tool: str
    input: dict[str, Any] = Field(default_factory=dict)
    tool_use_id: str


class ToolProgressEvent(_Model):
    """Stream event: a running tool's progress."""

    type: Literal["tool_progress"] = "tool_progress"
    tool: str
    stage: str = ""
    message: str = ""
    progress: float | None = Field(default=None, ge=0.0, le=1.0)
    data: Any = None


class EntityChange(_Model):
    """What a tool changed in the app: an entity (`report`, `stream`...) by id, created,
    updated or deleted, so a page that shows it can refetch it or move on."""

    entity: str = Field(min_length=1, max_length=100)
    id: str = Field(min_length=1, max_length=200)
    change: Literal["created", "updated", "deleted"]


class ToolCompleteEvent(_Model):
    """Stream event: the tool call at `index` finished."""

    type: Literal["tool_complete"] = "tool_complete"
    tool: str
    index: int = Field(ge=0)
    is_error: bool = False
    output: str | None = None
    """What the tool returned to the model, so a live tool card can show it before `complete`."""
    payload: CustomPayload | None = None
    """The call's card data, as stored with the answer (`ToolHistoryEntry.payload`)."""
    approval: ApprovalPublic | None = None
    """For a call that needed approval: the decision (`ToolHistoryEntry.approval`)."""
    usage: Usage | None = None
    """Tokens the answer has used so far, every model call up to this one: another worker
    that takes the answer over counts them in (DESIGN.md §2)."""
    changes: list[EntityChange] | None = None
    """What the call changed in the app (its `ToolResult.changes`); none when it changed nothing."""
    sources: list[Source] | None = None
    """The sources the call returned (its `ToolResult.sources`), each with its number in the
    answer, so citations link while the answer streams; none when it returned none."""


class CompleteEvent(_Model):
    """Stream event: the answer is done; the full response and its payloads."""

    type: Literal["complete"] = "complete"
    payload: ChatResponsePayload


class ErrorEvent(_Model):
    """Stream event: the run failed; the message to show, and its kind."""

    type: Literal["error"] = "error"
    message: str
    code: str | None = None
    """Machine-readable kind: rate_limit, overloaded, auth, timeout, connection, ..."""


class CancelledEvent(_Model):
    """Stream event: the run was stopped; the answer so far is kept."""

    type: Literal["cancelled"] = "cancelled"


class ApprovalRequestedEvent(_Model):
    """The turn pauses before a tool call the user must approve; it ends this run.

    The decision route resumes the turn in a new run (`ApprovalDecisionResult.run_id`)."""

    type: Literal["approval_requested"] = "approval_requested"
    approval_id: str
    tool: str
    input: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""
    tool_use_id: str
    expires_at: datetime | None = None
    conversation_id: str | None = None
    message_id: str | None = None


class ApprovalResolvedEvent(_Model):
    """First news of a resumed turn: what became of the call it waited for."""

    type: Literal["approval_resolved"] = "approval_resolved"
    approval_id: str
    status: ApprovalStatus
    note: str | None = None


StreamEvent = Annotated[
    StatusEvent
    | TextDeltaEvent
    | ReasoningEvent
    | ReplyPartsEvent
    | ToolStartEvent
    | ToolProgressEvent
    | ToolCompleteEvent
    | CompleteEvent
    | ErrorEvent
    | CancelledEvent
    | ApprovalRequestedEvent
    | ApprovalResolvedEvent,
    Field(discriminator="type"),
]

_EVENT_ADAPTER: TypeAdapter[StreamEvent] = TypeAdapter(StreamEvent)


def parse_event(data: str | bytes) -> StreamEvent:
    """Parse one SSE `data:` payload into its typed event."""
    return _EVENT_ADAPTER.validate_json(data)


# --- requests -------------------------------------------------------------


def _storable(value: Any) -> Any:
    """Every string in `value`, dict keys included, can be stored and sent on.

    JSON allows `\\u0000` and lone surrogates such as `\\ud800`: PostgreSQL text cannot
    hold the first, and no UTF-8 encoder (database, model API, response) takes the second.
    """
    pending: list[Any] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError("text must not contain NUL characters")
            try:
                item.encode()
            except UnicodeEncodeError:
                raise ValueError("text must be valid Unicode (no lone surrogates)") from None
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return value


def unstorable(value: Any) -> str | None:
    """Why `value` (a client's text or JSON) cannot be stored and sent on (a NUL, a lone
    surrogate), or None: for routes that read a body of another protocol's models."""
    try:
        _storable(value)
    except ValueError as exc:
        return str(exc)
    return None


MAX_JSON_DEPTH = 32
"""How deep a client's JSON may nest (page context, action and payload data, AG-UI
state, context, tool schemas and forwarded props): far below where encoders give up."""
MAX_JSON_VALUES = 20_000
"""How many values (objects, arrays, strings, numbers...) a client's JSON may hold."""
_INT64 = (-(2**63), 2**63 - 1)
"""The integers a client's JSON may hold: what PostgreSQL's JSONB, the run's Redis
recipe (orjson) and JavaScript clients can carry. Python's JSON reads any size."""


def json_limit_problem(value: Any, *, what: str) -> str | None:
    """Why `value`, a client's JSON named `what`, is over `MAX_JSON_DEPTH` or
    `MAX_JSON_VALUES` or holds an integer beyond 64 bits (named by its path), or None.
    Iterative: no depth makes it recurse."""
    pending: list[tuple[Any, int, str]] = [(value, 1, "")]
    count = 0
    while pending:
        item, depth, path = pending.pop()
        count += 1
        if count > MAX_JSON_VALUES:
            return f"{what} holds more than {MAX_JSON_VALUES:,} values (MAX_JSON_VALUES)"
        if depth > MAX_JSON_DEPTH:
            return f"{what} nests deeper than {MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH)"
        if isinstance(item, int) and not _INT64[0] <= item <= _INT64[1]:
            where = f" at {path.lstrip('.')}" if path else ""
            return f"{what} holds an integer outside the 64-bit range{where}"
        if isinstance(item, dict):
            pending.extend((v, depth + 1, f"{path}.{k}") for k, v in item.items())
        elif isinstance(item, list):
            pending.extend((v, depth + 1, f"{path}[{i}]") for i, v in enumerate(item))
    return None


def _bounded(value: Any) -> Any:
    problem = json_limit_problem(value, what="the JSON")
    if problem is not None:
        raise ValueError(problem)
    return value


_Text = Annotated[str, AfterValidator(_storable)]
# Bounded first: _storable walks every value.
_JsonObject = Annotated[dict[str, Any], AfterValidator(_bounded), AfterValidator(_storable)]


MAX_ATTACHMENTS = 20
"""The most attachment ids a request may name; each role's own limit is lower
(`QuotaPolicy.attachments_per_message`)."""

_AttachmentIds = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=64)]], Field(max_length=MAX_ATTACHMENTS)
]


class AttachmentRef(_Model):
    """A file a user message carries (`POST /api/attachments` made it): what the tray shows."""

    id: str
    name: str
    media_type: str
    """Sniffed from the bytes: image/png, image/jpeg, image/webp, image/gif,
    application/pdf, text/plain or application/json."""
    size: int


class ChatRequest(_Model):
    """The body of `POST /api/chat/stream`: the user's message and page, the conversation,
    and the ids of the files the message carries. The text may be empty when files come."""

    message: _Text = Field(default="", max_length=MAX_MESSAGE_CHARS)
    context: _JsonObject = Field(default_factory=dict)
    conversation_id: _Text | None = Field(default=None, max_length=64)
    attachments: _AttachmentIds = Field(default_factory=list)

    @model_validator(mode="after")
    def _not_blank(self) -> ChatRequest:
        if not self.message.strip() and not self.attachments:
            raise ValueError("message must not be blank")
        return self


class ActionRequest(_Model):
    """The body of `POST /api/chat/actions`: a page action (a card's button) to run."""

    conversation_id: _Text | None = Field(default=None, max_length=64)
    action: _Text = Field(min_length=1, max_length=200)
    data: _JsonObject = Field(default_factory=dict)
    context: _JsonObject = Field(default_factory=dict)


class ActionResult(_Model):
    """What a page action returned: whether it worked, a message, and its data."""

    action: str
    ok: bool = True
    message: str = ""
    data: Any = None


class LoginRequest(_Model):
    """The body of `POST /api/auth/login`: email and password."""

    email: _Text = Field(min_length=1, max_length=320)
    password: str = Field(min_length=1, max_length=1024)


class Token(_Model):
    """A bearer token, the answer to a login."""

    access_token: str
    token_type: Literal["bearer"] = "bearer"


class ErrorResponse(_Model):
    """The body of every 4xx/5xx answer."""

    detail: Any


# --- stored data, as clients see it --------------------------------------

MessageStatus = Literal[
    "running", "complete", "cancelled", "error", "interrupted", "needs_approval"
]
"""`running`: its run is live (`run_id` resumes it); `interrupted`: the server stopped mid-run;
`needs_approval`: paused before a tool call until the user decides (`approval`)."""

PayloadDecision = Literal["accepted", "rejected", "dismissed"]
"""What the user did with an answer's primary payload (`custom_payload`) in its card:
`dismissed` is closing it without accepting or rejecting."""


class UserPublic(_Model):
    """The signed-in user as the client sees them."""

    id: str
    email: str
    is_admin: bool = False


FeedbackRating = Literal["up", "down"]


class FeedbackRequest(_Model):
    """The body of `PUT /api/conversations/{id}/messages/{message_id}/feedback`."""

    model_config = ConfigDict(extra="forbid")
    rating: FeedbackRating
    comment: _Text | None = Field(default=None, max_length=2000)


class FeedbackPublic(_Model):
    """The user's thumbs up or down on an answer, with an optional comment."""

    rating: FeedbackRating
    comment: str | None = None
    updated_at: datetime


class MessagePublic(_Model):
    """A stored message with everything needed to render it as it looked live."""

    id: str
    role: Literal["user", "assistant", "action"]
    content: str
    status: MessageStatus = "complete"
    created_at: datetime
    suggested_values: list[SuggestedValue] | None = None
    suggested_actions: list[SuggestedAction] | None = None
    custom_payload: CustomPayload | None = None
    payloads: list[CustomPayload] = Field(default_factory=list)
    tool_history: list[ToolHistoryEntry] = Field(default_factory=list)
    usage: Usage | None = None
    error: str | None = None
    warnings: list[str] = Field(default_factory=list)
    context_audit: str | None = None
    """The page context text the model saw; present for admins only."""
    run_id: str | None = None
    payload_decision: PayloadDecision | None = None
    """What the user did with `custom_payload`; None while undecided (the card opens by itself)."""
    stop_reason: str | None = None
    """As in `ChatResponsePayload`: `max_tokens` for an answer cut off by the output limit."""
    approval: ApprovalPublic | None = None
    """The request a `needs_approval` answer waits for."""
    parent_id: str | None = None
    """The message this one follows; None for the conversation's first."""
    attachments: list[AttachmentRef] = Field(default_factory=list)
    """A user message's files, in the order sent."""
    sibling_count: int = 1
    """How many messages share this one's parent: regenerated answers, edited questions."""
    sibling_position: int = 1
    """This message's place among them, from 1, oldest first (the branch picker's `2 / 3`)."""
    feedback: FeedbackPublic | None = None
    """The caller's own thumbs on this answer; nobody else's is ever shown."""
    model: str | None = None
    """`provider/name` of the model that wrote this answer."""
    reasoning: Reasoning | None = None
    """The model's reasoning before the answer, when it showed any (as it streamed)."""
    sources: list[Source] = Field(default_factory=list)
    """The answer's sources, numbered as its `[n]` citations name them."""


class ConversationPublic(_Model):
    """A conversation as the client sees it: id, title and times."""

    id: str
    title: str
    created_at: datetime
    updated_at: datetime


class ConversationList(_Model):
    """A page of the user's conversations, with the total count."""

    items: list[ConversationPublic]
    total: int
    offset: int
    limit: int


class ConversationSearchHit(_Model):
    """A conversation that matched a search, with the text that matched."""

    conversation: ConversationPublic
    snippet: str
    """Plain text around the first matching word (or the title, when only it matched)."""
    message_id: str | None = None
    """The newest matching message; null when only the title matched."""


class ConversationSearchResults(_Model):
    """The user's conversations whose title or messages hold every word searched for
    (each word also as a prefix), most recently active first."""

    items: list[ConversationSearchHit]
    terms: list[str]
    """The words searched for, as the search read them (operators and quotes are plain text)."""


class ConversationDetail(ConversationPublic):
    """A conversation with a page of the messages of its active branch."""

    messages: list[MessagePublic] = Field(default_factory=list)
    """The newest messages (a page of them), oldest first."""
    older: str | None = None
    """Cursor of the messages before these (`?before=`); null when these are the first."""
    active_leaf_id: str | None = None
    """The last message of the active branch: `messages` is the path from the root to it."""


class ConversationUpdate(_Model):
    """The body of `PATCH /api/conversations/{id}`: the new title."""

    title: _Text = Field(min_length=1, max_length=200)


class BranchTurnRequest(_Model):
    """The body of regenerate and continue: the page the user is on now."""

    context: _JsonObject = Field(default_factory=dict)


class EditRequest(_Model):
    """The body of edit-and-resend: the new text of the user's message, and its files
    (None: the edited message's own; a list replaces them)."""

    message: _Text = Field(default="", max_length=MAX_MESSAGE_CHARS)
    context: _JsonObject = Field(default_factory=dict)
    attachments: _AttachmentIds | None = None

    @model_validator(mode="after")
    def _not_blank(self) -> EditRequest:
        if not self.message.strip() and not self.attachments:
            raise ValueError("message must not be blank")
        return self


class BranchSelectRequest(_Model):
    """The body of `PUT .../messages/{message_id}/branch`: which of its siblings to show."""

    model_config = ConfigDict(extra="forbid")
    position: int = Field(ge=1, le=10_000)


class PayloadDecisionRequest(_Model):
    """The body of `POST /api/conversations/{id}/messages/{message_id}/decision`."""

    model_config = ConfigDict(extra="forbid")
    decision: PayloadDecision


class ApprovalDecisionRequest(_Model):
    """The body of `POST /api/chat/approvals/{approval_id}`."""

    model_config = ConfigDict(extra="forbid")
    decision: Literal["approved", "denied"]
    note: _Text | None = Field(default=None, max_length=2000)
    """Why the user denied it; the model is told."""


class ApprovalDecisionResult(_Model):
    """The decided approval request, and the run that goes on with the turn."""

    approval: ApprovalPublic
    run_id: str
    """The run that goes on with the turn: follow it at `/api/chat/runs/{run_id}/events`."""


_SCHEMA_ROOTS: tuple[type[BaseModel], ...] = (
    ChatRequest,
    ChatResponsePayload,
    PayloadErrorData,
    ActionRequest,
    ActionResult,
    LoginRequest,
    Token,
    UserPublic,
    MessagePublic,
    ConversationPublic,
    ConversationList,
    ConversationDetail,
    ConversationUpdate,
    ConversationSearchResults,
    PayloadDecisionRequest,
    ApprovalDecisionRequest,
    ApprovalDecisionResult,
    BranchTurnRequest,
    EditRequest,
    BranchSelectRequest,
    FeedbackRequest,
    FeedbackPublic,
    ErrorResponse,
    AiSdkDataParts,
    AiSdkMessageMetadata,
)


def wire_schema() -> dict[str, Any]:
    """One JSON Schema document holding every wire type under `$defs`.

    `StreamEvent` is the discriminated union of the twelve events.
    """
    from pydantic.json_schema import models_json_schema

    _, top = models_json_schema(
        [(m, "serialization") for m in _SCHEMA_ROOTS], ref_template="#/$defs/{model}"
    )
    defs: dict[str, Any] = dict(top.get("$defs", {}))
    event_schema = _EVENT_ADAPTER.json_schema(mode="serialization", ref_template="#/$defs/{model}")
    defs.update(event_schema.pop("$defs", {}))
    defs["StreamEvent"] = event_schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "pagechat wire contract",
        "$defs": dict(sorted(defs.items())),
    }
