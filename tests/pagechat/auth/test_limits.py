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


def test_an_account_backs_off_whatever_the_address_guesses_come_from() -> None:
    clock = Clock()
    limiter = LoginLimiter(max_attempts=3, window_seconds=600, account_attempts=5, clock=clock)
    for i in range(5):  # each from an address of its own: the per-address count never trips
        assert limiter.retry_after("a@x", f"10.0.0.{i}") is None
        limiter.failed("a@x", f"10.0.0.{i}")

    assert limiter.retry_after("a@x", "10.9.9.9") == 1
    clock.now += 1
    assert limiter.retry_after("a@x", "10.9.9.9") is None
    limiter.failed("a@x", "10.9.9.9")
    assert limiter.retry_after("a@x", "10.8.8.8") == 2  # each failure doubles the wait
    clock.now += 2
    limiter.failed("a@x", "10.8.8.8")
    assert limiter.retry_after("a@x", "10.7.7.7") == 4
    assert limiter.retry_after("b@x", "10.7.7.7") is None  # other accounts are not slowed


def test_an_accounts_backoff_never_exceeds_the_window_and_a_success_ends_it() -> None:
    clock = Clock()
    limiter = LoginLimiter(max_attempts=100, window_seconds=60, account_attempts=2, clock=clock)
    for i in range(20):
        limiter.failed("a@x", f"ip{i}")

    assert limiter.retry_after("a@x", "ip") == 60
    limiter.succeeded("a@x", "ip")
    assert limiter.retry_after("a@x", "ip") is None
