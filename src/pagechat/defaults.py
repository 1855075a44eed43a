"""Defaults of the knobs both code and environment set: one home for each value.

`ChatConfig` (what `create_app` uses when given no config) and `Settings` (the
environment, what `pagechat serve` uses) both start from these, so the two never
disagree. Depends on nothing, so any layer may read it.
"""

from __future__ import annotations

__all__ = [
    "APPROVAL_TIMEOUT_SECONDS",
    "CHECKPOINT_SECONDS",
    "HISTORY_BUDGET",
    "MAX_ITERATIONS",
    "MAX_TAKEOVERS",
    "MAX_TOKENS",
]

MAX_ITERATIONS = 5
"""Model calls with tools in one turn; then one more without tools to sum up."""
MAX_TOKENS = 4096
"""Output tokens of one model call."""
HISTORY_BUDGET = 24_000
"""Characters of earlier turns sent with a new one (the newest that fit)."""
CHECKPOINT_SECONDS = 1.0
"""How often running answers are saved, so a killed process keeps them."""
APPROVAL_TIMEOUT_SECONDS = 900.0
"""How long a paused tool call waits for the user's decision before it counts as denied."""
MAX_TAKEOVERS = 3
"""How often one answer may be taken over by another worker (its own stopped) before
it ends with an error instead: a run that kills every worker it lands on stops there."""
