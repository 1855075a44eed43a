"""The one interface every LLM provider implements.

A provider turns a provider-neutral `ModelRequest` into a stream of
`ModelEvent`s: text as it arrives (`pagechat.events.TextDelta`, the same object the
loop passes on), tool calls once their input is complete, and a final `ModelFinish`
with the stop reason and token usage. The agent loop knows nothing else about
providers.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..defaults import MAX_TOKENS
from ..events import ReasoningDelta, TextDelta

__all__ = [
    "AssistantTurn",
    "FilePart",
    "Model",
    "ModelEvent",
    "ModelFinish",
    "ModelMessage",
    "ModelRequest",
    "ModelThinking",
    "ModelToolCall",
    "ReasoningDelta",
    "StopReason",
    "TextDelta",
    "ThinkingPart",
    "TokenUsage",
    "ToolCallPart",
    "ToolResultPart",
    "ToolResultsTurn",
    "ToolSpec",
    "UserTurn",
]

StopReason = Literal["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal", "other"]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What the model is told about a tool."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolCallPart:
    """A tool call the model made: its id, the tool, and the input."""

    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolResultPart:
    """A tool's result, sent back to the model for the call with `tool_use_id`."""

    tool_use_id: str
    content: str
    is_error: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ThinkingPart:
    """A block of the model's reasoning in an assistant turn (Anthropic's extended
    thinking), kept as the provider sent it: on a tool turn it goes back unchanged, as
    the API checks its signature. A redacted block has only its opaque `data`."""

    thinking: str = ""
    signature: str = ""
    data: str = ""
    """A `redacted_thinking` block's encrypted content; empty for a readable block."""

    def to_json(self) -> dict[str, str]:
        """The block as plain JSON (a paused turn's state stores it)."""
        if self.data:
            return {"data": self.data}
        return {"thinking": self.thinking, "signature": self.signature}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ThinkingPart:
        """Read back `to_json`."""
        return cls(
            thinking=str(data.get("thinking", "")),
            signature=str(data.get("signature", "")),
            data=str(data.get("data", "")),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class FilePart:
    """A file the user sent with their turn, made ready for the model
    (`pagechat.attachments.content`): `image` (re-encoded bytes, `media_type`), `pdf`
    (the document's bytes, for providers that read PDFs, and its extracted `text` for
    those that do not) or `text` (its text, within the budget). `note` says what was cut
    or left out; a provider sends it with the file."""

    kind: Literal["image", "pdf", "text"]
    name: str
    media_type: str
    data: bytes = b""
    text: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class UserTurn:
    """The user's turn in the history: the text the model reads, and the files it carries."""

    text: str
    role: Literal["user"] = "user"
    files: tuple[FilePart, ...] = ()


@dataclass(frozen=True, slots=True)
class AssistantTurn:
    """The model's turn in the history: its text and the tools it called."""

    text: str = ""
    tool_calls: tuple[ToolCallPart, ...] = ()
    role: Literal["assistant"] = "assistant"
    partial: bool = False
    """An answer that stopped before its end, for the model to go on with (Continue):
    prefilled where the provider supports it, else followed by a request to continue."""
    thinking: tuple[ThinkingPart, ...] = ()
    """The reasoning blocks the model wrote before `text` and `tool_calls`, sent back
    first in the turn (a provider that has none ignores them)."""


@dataclass(frozen=True, slots=True)
class ToolResultsTurn:
    """The results of an assistant turn's tool calls, sent back as the next user turn."""

    results: tuple[ToolResultPart, ...]
    role: Literal["tool_results"] = "tool_results"


ModelMessage = UserTurn | AssistantTurn | ToolResultsTurn


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """One call of the model: system prompt, history, tools and sampling settings."""

    system: str
    messages: Sequence[ModelMessage]
    tools: Sequence[ToolSpec] = ()
    max_tokens: int = MAX_TOKENS
    temperature: float | None = None
    tool_choice: Literal["auto", "none"] = "auto"
    """`none` keeps the tools visible (history may hold tool calls) but forbids new calls."""
    purpose: Literal["answer", "title"] = "answer"
    """What the call is for: an answer, or a conversation's title (`chat/titles.py`), a
    short call the test and offline models answer without using up their script."""
    cache_prefix: int = 0
    """How many leading characters of `system` are the same on every turn on this page
    (base, page and format instructions; the page context comes after them): a provider
    that caches prompts puts a cache boundary there. 0: no stable prefix is known."""


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Tokens of one call or more; adds up with `+`.

    `input_tokens` is the whole prompt, cached or not; `cache_read_tokens` of them were
    read from the provider's prompt cache and `cache_write_tokens` written to it (both
    part of `input_tokens`, priced differently by the provider)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    def as_list(self) -> list[int]:
        """The four counts, in field order: how a paused turn stores them."""
        return [
            self.input_tokens,
            self.output_tokens,
            self.cache_read_tokens,
            self.cache_write_tokens,
        ]

    @classmethod
    def from_list(cls, counts: list[int] | tuple[int, ...]) -> TokenUsage:
        """Read back `as_list` (or the two counts older paused turns stored)."""
        return cls(*(int(c) for c in counts[:4]))


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelToolCall:
    """A complete tool call: emitted once the model has finished writing its input."""

    kind: Literal["model_tool_call"] = "model_tool_call"
    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelThinking:
    """A whole reasoning block, emitted at its end (after its `ReasoningDelta`s), for the
    loop to send back with the turn's tool calls."""

    kind: Literal["model_thinking"] = "model_thinking"
    part: ThinkingPart


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelFinish:
    """The model's response ended: why, and the tokens it used."""

    kind: Literal["model_finish"] = "model_finish"
    stop_reason: StopReason
    usage: TokenUsage = field(default_factory=TokenUsage)


ModelEvent = TextDelta | ReasoningDelta | ModelThinking | ModelToolCall | ModelFinish
"""What a provider streams, discriminated by `kind` (events of the same family as
`pagechat.events`). A provider that reasons aloud streams `ReasoningDelta`s before
(or between) the answer's text, and one that must have its reasoning back (Anthropic)
a `ModelThinking` per block."""


class Model(abc.ABC):
    """An LLM provider.

    `stream` is an async generator; closing it (or cancelling the task that
    iterates it) must close the upstream request. It raises
    `pagechat.models.errors.ProviderError` for the provider's failures and
    `ModelOutputError` for output it cannot make sense of.
    """

    provider: str = "custom"
    """Who serves it: `anthropic`, `openai`, `offline`, `scripted`, ..."""
    name: str = "model"
    """The model's name as its provider knows it."""
    context_window: int = 200_000
    accepts_images: bool = True
    """Whether the model reads images; one that does not gets a notice in their place."""
    image_max_edge: int = 1568
    """The longest edge, in pixels, an image is resized to before it is sent."""

    @abc.abstractmethod
    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one model call. Must end with exactly one `ModelFinish`."""

    async def aclose(self) -> None:  # noqa: B027 - most models hold nothing to release
        """Release what the model holds (a provider's HTTP connections) at shutdown."""
