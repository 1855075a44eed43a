"""Prometheus metrics: what operators watch on a pagechat deployment.

Every event a run emits passes through `RunMetrics.observe`, so the figures are
those of what users actually saw stream: time to the first text, the gaps
between deltas, how runs ended. Database errors are counted from SQLAlchemy's
own error hook, Redis errors where the shared run log meets them.

Several worker processes on one host share their figures through
`prometheus_client`'s multiprocess mode (`PROMETHEUS_MULTIPROC_DIR`, which
`pagechat serve --workers N` sets); each host is scraped on its own.
"""

from __future__ import annotations

import os
import time
from bisect import bisect_left
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess
from sqlalchemy import event as _sa_event
from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = [
    "CONTENT_TYPE_LATEST",
    "DATABASE_ERRORS",
    "REDIS_ERRORS",
    "RUNS_ACTIVE",
    "RUN_TAKEOVERS",
    "TAKEOVER_GAP",
    "RunMetrics",
    "count_database_errors",
    "count_model_tokens",
    "render_latest",
]

# Buckets for a human waiting on a chat answer: tens of ms to a minute.
_FIRST_TOKEN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
# Gaps between deltas: a model streams every few tens of ms; stalls of seconds matter.
_GAP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

RUNS_ACTIVE = Gauge(
    "pagechat_runs_active",
    "Answers running now.",
    multiprocess_mode="livesum",
)
RUNS_STARTED = Counter("pagechat_runs_started", "Answers started.")
RUN_OUTCOMES = Counter(
    "pagechat_run_outcomes",
    "Answers ended, by how they ended (complete, cancelled, error) and error code.",
    ["outcome", "code"],
)
TEXT_DELTAS = Counter("pagechat_text_deltas", "Text delta events streamed to users.")
TEXT_CHARS = Counter("pagechat_text_chars", "Characters of answer text streamed to users.")
MODEL_TOKENS = Counter(
    "pagechat_model_tokens",
    "Model tokens as the provider reported them, by kind (input, output, and cache_read / "
    "cache_write, the part of input read from or written to the prompt cache) and purpose "
    "(answer: ended answers; title: the calls that title a conversation).",
    ["kind", "purpose"],
)


def count_model_tokens(
    *, purpose: str, input: int, output: int, cache_read: int = 0, cache_write: int = 0
) -> None:
    """Add a model call's reported tokens to `pagechat_model_tokens` (purpose: answer, title)."""
    MODEL_TOKENS.labels("input", purpose).inc(input)
    MODEL_TOKENS.labels("output", purpose).inc(output)
    MODEL_TOKENS.labels("cache_read", purpose).inc(cache_read)
    MODEL_TOKENS.labels("cache_write", purpose).inc(cache_write)


TIME_TO_FIRST_TOKEN = Histogram(
    "pagechat_time_to_first_token_seconds",
    "From the start of an answer to its first text delta.",
    buckets=_FIRST_TOKEN_BUCKETS,
)
INTER_TOKEN = Histogram(
    "pagechat_inter_token_seconds",
    "Between consecutive text deltas of one answer.",
    buckets=_GAP_BUCKETS,
)
RUN_TAKEOVERS = Counter(
    "pagechat_run_takeovers",
    "Answers whose worker stopped, by what another worker did: claimed (went on with it), "
    "limit (ended: taken over too often), no_recipe (ended: it could not be rebuilt).",
    ["outcome"],
)
TAKEOVER_GAP = Histogram(
    "pagechat_takeover_gap_seconds",
    "From the last event the stopped worker wrote to the claim by another: the pause "
    "its followers saw, before the model answers again.",
    buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0),
)
REDIS_ERRORS = Counter("pagechat_redis_errors", "Redis operations that failed.", ["operation"])
DATABASE_ERRORS = Counter("pagechat_database_errors", "Database statements that raised.", ["error"])


_FLUSH_DELTAS = 50
"""Text deltas a run counts (and gaps between them) before adding them to the shared metrics."""


class _BatchedHistogram:
    """A histogram's observations counted here and added to it together (`flush`).

    `Histogram.observe` takes a lock per value, and the gaps between deltas are observed
    for every token. prometheus_client has no way to add many observations at once, so
    this adds the counts to the histogram's own bucket and sum values, as `observe` does
    one by one (tests/pagechat/test_metrics.py compares the two expositions).
    """

    __slots__ = ("_bounds", "_counts", "_histogram", "_sum")

    def __init__(self, histogram: Histogram) -> None:
        self._histogram = histogram
        self._bounds: list[float] = histogram._upper_bounds
        self._counts = [0] * len(self._bounds)
        self._sum = 0.0

    def observe(self, amount: float) -> None:
        self._sum += amount
        # The first bucket whose upper bound is at least `amount`, as `observe` picks it.
        self._counts[bisect_left(self._bounds, amount)] += 1

    def flush(self) -> None:
        histogram = self._histogram
        counts = self._counts
        for i, count in enumerate(counts):
            if count:
                histogram._buckets[i].inc(count)
                counts[i] = 0
        if self._sum:
            histogram._sum.inc(self._sum)
            self._sum = 0.0


class RunMetrics:
    """One run's timing; `observe` is called with every event the run emits."""

    __slots__ = ("_chars", "_deltas", "_ended", "_gaps", "_last_delta", "_started")

    def __init__(self) -> None:
        self._started = time.monotonic()
        self._last_delta: float | None = None
        self._ended = False
        # Counted here and added to the shared counters every `_FLUSH_DELTAS` and at the end:
        # a counter's increment takes a lock, and this runs for every token.
        self._deltas = 0
        self._chars = 0
        self._gaps = _BatchedHistogram(INTER_TOKEN)
        RUNS_STARTED.inc()
        RUNS_ACTIVE.inc()

    def observe(self, event_type: str, event: Any) -> None:
        # The hot path: one text delta per call, so only the cheap branch runs for it.
        """Count the event in the run's metrics (first token, gaps, tools, outcome)."""
        if event_type == "text_delta":
            now = time.monotonic()
            last = self._last_delta
            if last is None:
                TIME_TO_FIRST_TOKEN.observe(now - self._started)
            else:
                self._gaps.observe(now - last)
            self._last_delta = now
            self._deltas += 1
            self._chars += len(event)  # a text delta is observed as its text
            if self._deltas >= _FLUSH_DELTAS:
                self._flush()
        elif event_type == "complete":
            usage = event.payload.usage
            if usage is not None:
                count_model_tokens(
                    purpose="answer",
                    input=usage.input_tokens,
                    output=usage.output_tokens,
                    cache_read=usage.cache_read_tokens,
                    cache_write=usage.cache_write_tokens,
                )
            self._end("complete", "")
        elif event_type == "error":
            self._end("error", event.code or "unknown")
        elif event_type == "cancelled":
            self._end("cancelled", "")

    def _flush(self) -> None:
        TEXT_DELTAS.inc(self._deltas)
        TEXT_CHARS.inc(self._chars)
        self._deltas = self._chars = 0
        self._gaps.flush()

    def _end(self, outcome: str, code: str) -> None:
        if self._ended:
            return
        self._ended = True
        self._flush()
        RUN_OUTCOMES.labels(outcome, code).inc()
        RUNS_ACTIVE.dec()


def count_database_errors(engine: AsyncEngine) -> None:
    """Count every statement the engine fails to run, by exception class."""

    def _on_error(context: Any) -> None:
        error = context.original_exception
        DATABASE_ERRORS.labels(type(error).__name__).inc()

    _sa_event.listen(engine.sync_engine, "handle_error", _on_error)


def render_latest() -> bytes:
    """The text exposition of this process, or of every worker of this host."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest()
