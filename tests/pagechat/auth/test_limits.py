from __future__ import annotations

from pagechat.auth.limits import LoginLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _limiter(clock: Clock) -> LoginLimiter:
    return LoginLimiter(max_attempts=3, window_seconds=60, clock=clock)


def test_attempts_are_allowed_up_to_the_limit() -> None:
    clock = Clock()
    limiter = _limiter(clock)

    for _ in range(2):
        limiter.failed("a@x", "1.2.3.4")
    assert limiter.retry_after("a@x", "1.2.3.4") is None

    limiter.failed("a@x", "1.2.3.4")
    assert limiter.retry_after("a@x", "1.2.3.4") == 60


def test_the_wait_ends_when_the_oldest_failure_leaves_the_window() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    for _ in range(3):
        limiter.failed("a@x", "ip")
        clock.now += 10

    assert limiter.retry_after("a@x", "ip") == 30
    clock.now += 30
    assert limiter.retry_after("a@x", "ip") is None


def test_a_success_clears_the_count() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    for _ in range(3):
        limiter.failed("a@x", "ip")

    limiter.succeeded("a@x", "ip")

    assert limiter.retry_after("a@x", "ip") is None


def test_each_email_and_address_pair_counts_alone() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    for _ in range(3):
        limiter.failed("a@x", "ip1")

    assert limiter.retry_after("a@x", "ip2") is None
    assert limiter.retry_after("b@x", "ip1") is None


def test_memory_is_bounded_by_forgetting_the_oldest_pairs() -> None:
    clock = Clock()
    limiter = LoginLimiter(max_attempts=1, window_seconds=60, max_keys=2, clock=clock)

    for email in ("a@x", "b@x", "c@x"):
        limiter.failed(email, "ip")

    assert limiter.retry_after("a@x", "ip") is None
    assert limiter.retry_after("c@x", "ip") == 60
