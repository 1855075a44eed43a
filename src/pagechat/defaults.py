"""Defaults of the knobs both code and environment set: one home for each value.

`ChatConfig` (what `create_app` uses when given no config) and `Settings` (the
environment, what `pagechat serve` uses) both start from these, so the two never
disagree; so do the classes `Settings` configures (the authenticator, the login
limits, the HTTP guard, the Redis run manager) when built without it. Depends on
nothing, so any layer may read it.
"""

from __future__ import annotations

__all__ = [
    "APPROVAL_TIMEOUT_SECONDS",
    "BODY_TIMEOUT_SECONDS",
    "CHECKPOINT_SECONDS",
    "DRAIN_SECONDS",
    "HEADER_TIMEOUT_SECONDS",
    "HISTORY_BUDGET",
    "LOGIN_MAX_ATTEMPTS",
    "LOGIN_WINDOW_SECONDS",
    "MAX_HEADER_BYTES",
    "MAX_ITERATIONS",
    "MAX_TAKEOVERS",
    "MAX_TOKENS",
    "RUN_LEASE_SECONDS",
    "RUN_LOG_MAX_EVENTS",
    "RUN_LOG_TTL_SECONDS",
    "TOKEN_TTL_MINUTES",
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

TOKEN_TTL_MINUTES = 12 * 60
"""How long a sign-in (its access token and session cookie) lasts."""
LOGIN_MAX_ATTEMPTS = 10
"""Failed logins allowed per email and client address within `LOGIN_WINDOW_SECONDS`."""
LOGIN_WINDOW_SECONDS = 300.0
"""The window failed logins are counted in, and the longest wait they cause."""

MAX_HEADER_BYTES = 16 * 1024
"""A request's line and headers together; more is answered 431 (`pagechat serve`)."""
HEADER_TIMEOUT_SECONDS = 10.0
"""Time to send a request's headers; then 408 (`pagechat serve`)."""
BODY_TIMEOUT_SECONDS = 30.0
"""Longest pause while sending a request body; then the connection is closed."""

RUN_LOG_TTL_SECONDS = 3600.0
"""How long a finished run's event log stays replayable in Redis."""
RUN_LOG_MAX_EVENTS = 100_000
"""Events a run's log in Redis holds at most."""
RUN_LEASE_SECONDS = 10.0
"""A worker that stops renewing its runs' lease for this long is taken for dead."""
DRAIN_SECONDS = 30.0
"""On SIGTERM, how long running answers may finish before they are ended."""

MAX_TAKEOVERS = 3
"""How often one answer may be taken over by another worker (its own stopped) before
it ends with an error instead: a run that kills every worker it lands on stops there."""
