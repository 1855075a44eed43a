"""What the metrics add up (the server's /metrics route: server/test_metrics_route.py)."""

from prometheus_client import CollectorRegistry, Histogram

from pagechat.metrics import _BatchedHistogram

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def _samples(histogram: Histogram) -> list[tuple[str, dict[str, str], float]]:
    (metric,) = histogram.collect()
    return [
        # The sum's last digits depend on the order of the additions.
        (s.name.removeprefix(metric.name), s.labels, round(s.value, 9))
        for s in metric.samples
        if not s.name.endswith("_created")
    ]


def test_gaps_added_together_read_exactly_as_gaps_observed_one_by_one() -> None:
    registry = CollectorRegistry()
    one_by_one = Histogram("one_seconds", "each observed", buckets=_BUCKETS, registry=registry)
    together = Histogram("all_seconds", "added together", buckets=_BUCKETS, registry=registry)
    batch = _BatchedHistogram(together)
    # On a bound, just above one, beyond the last, zero, and repeated.
    gaps = [0.0, 0.005, 0.0051, 0.02, 0.02, 1.0, 3.0, 11.0, 0.005]
    for gap in gaps[:4]:
        one_by_one.observe(gap)
        batch.observe(gap)
    batch.flush()
    assert _samples(together) == _samples(one_by_one)
    for gap in gaps[4:]:
        one_by_one.observe(gap)
        batch.observe(gap)
    assert _samples(together) != _samples(one_by_one)  # nothing added until the flush
    batch.flush()
    batch.flush()  # a second flush adds nothing
    assert _samples(together) == _samples(one_by_one)
