"""How a chat turn is run: limits, retries, prompt and streaming settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models.retry import RetryPolicy
from .coalesce import DEFAULT_WINDOW
from .history import DEFAULT_HISTORY_BUDGET

__all__ = ["DEFAULT_BASE_INSTRUCTIONS", "ChatConfig"]

DEFAULT_BASE_INSTRUCTIONS = (
    "You are a helpful assistant embedded in a web application. You see the page the user "
    "is on and can use the application's tools. Be concise and concrete."
)


@dataclass(frozen=True)
class ChatConfig:
    max_iterations: int = 5
    max_tokens: int = 4096
    temperature: float | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    base_instructions: str = DEFAULT_BASE_INSTRUCTIONS
    history_budget: int = DEFAULT_HISTORY_BUDGET
    context_warning_ratio: float = 0.7
    """Warn in the `complete` payload when the prompt passes this share of the context window."""
    checkpoint_seconds: float | None = 1.0
    """How often running answers are saved, so a killed process keeps them; None: never."""
    coalesce_seconds: float = DEFAULT_WINDOW
    """Text deltas within this window of the last text event are merged into one (0: never)."""
