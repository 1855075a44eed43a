"""How a chat turn is run: limits, retries, prompt and streaming settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import defaults
from ..models.retry import RetryPolicy
from ..pages import DEFAULT_BASE_INSTRUCTIONS
from .coalesce import DEFAULT_WINDOW
from .history import DEFAULT_HISTORY_BUDGET

__all__ = ["ChatConfig"]


@dataclass(frozen=True)
class ChatConfig:
    """How a chat turn runs: the loop's limits, the model's settings, the prompt's budget."""

    max_iterations: int = defaults.MAX_ITERATIONS
    max_tokens: int = defaults.MAX_TOKENS
    temperature: float | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    base_instructions: str = DEFAULT_BASE_INSTRUCTIONS
    history_budget: int = DEFAULT_HISTORY_BUDGET
    context_warning_ratio: float = 0.7
    """Warn in the `complete` payload when the prompt passes this share of the context window."""
    checkpoint_seconds: float | None = defaults.CHECKPOINT_SECONDS
    """How often running answers are saved, so a killed process keeps them; None: never."""
    coalesce_seconds: float = DEFAULT_WINDOW
    """Text deltas within this window of the last text event are merged into one (0: never)."""
    approval_timeout_seconds: float | None = defaults.APPROVAL_TIMEOUT_SECONDS
    """A tool call waiting for the user's approval is denied after this long (None: never)."""
    model_titles: bool = True
    """After a new conversation's first answer, the model writes its title in a separate
    small call (chat/titles.py); False keeps the first message as the title."""
