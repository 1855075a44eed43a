from __future__ import annotations

from redis.asyncio import Redis

from pagechat.auth.limits import LoginLimiter, RedisLoginLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _limiter(clock: Clock) -> LoginLimiter:
    return LoginLimiter(max_attempts=3, window_seconds=60, clock=clock)


async def test_attempts_are_allowed_up_to_the_limit() -> None:
    clock = Clock()
    limiter = _limiter(clock)

    for _ in range(2):
        await limiter.failed("a@x", "1.2.3.4")
    assert await limiter.retry_after("a@x", "1.2.3.4") is None

    await limiter.failed("a@x", "1.2.3.4")
    assert await limiter.retry_after("a@x", "1.2.3.4") == 60


async def test_the_wait_ends_when_the_oldest_failure_leaves_the_window() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    for _ in range(3):
        await limiter.failed("a@x", "ip")
        clock.now += 10

    assert await limiter.retry_after("a@x", "ip") == 30
    clock.now += 30
    assert await limiter.retry_after("a@x", "ip") is None


async def test_a_success_clears_the_count() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    for _ in range(3):
        await limiter.failed("a@x", "ip")

    await limiter.succeeded("a@x", "ip")

    assert await limiter.retry_after("a@x", "ip") is None


async def test_each_email_and_address_pair_counts_alone() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    for _ in range(3):
        await limiter.failed("a@x", "ip1")

    assert await limiter.retry_after("a@x", "ip2") is None
    assert await limiter.retry_after("b@x", "ip1") is None


async def test_memory_is_bounded_by_forgetting_the_oldest_pairs() -> None:
    clock = Clock()
    limiter = LoginLimiter(max_attempts=1, window_seconds=60, max_keys=2, clock=clock)

    for email in ("a@x", "b@x", "c@x"):
        await limiter.failed(email, "ip")

    assert await limiter.retry_after("a@x", "ip") is None
    assert await limiter.retry_after("c@x", "ip") == 60


async def test_an_account_backs_off_whatever_the_address_guesses_come_from() -> None:
    clock = Clock()
    limiter = LoginLimiter(max_attempts=3, window_seconds=600, account_attempts=5, clock=clock)
    for i in range(5):  # each from an address of its own: the per-address count never trips
        assert await limiter.retry_after("a@x", f"10.0.0.{i}") is None
        await limiter.failed("a@x", f"10.0.0.{i}")

    assert await limiter.retry_after("a@x", "10.9.9.9") == 1
    clock.now += 1
    assert await limiter.retry_after("a@x", "10.9.9.9") is None
    await limiter.failed("a@x", "10.9.9.9")
    assert await limiter.retry_after("a@x", "10.8.8.8") == 2  # each failure doubles the wait
    clock.now += 2
    await limiter.failed("a@x", "10.8.8.8")
    assert await limiter.retry_after("a@x", "10.7.7.7") == 4
    assert await limiter.retry_after("b@x", "10.7.7.7") is None  # other accounts are not slowed


async def test_an_accounts_backoff_never_exceeds_the_window_and_a_success_ends_it() -> None:
    clock = Clock()
    limiter = LoginLimiter(max_attempts=100, window_seconds=60, account_attempts=2, clock=clock)
    for i in range(20):
        await limiter.failed("a@x", f"ip{i}")

    assert await limiter.retry_after("a@x", "ip") == 60
    await limiter.succeeded("a@x", "ip")
    assert await limiter.retry_after("a@x", "ip") is None


async def test_workers_sharing_redis_share_the_counts(redis_url: str) -> None:
    clock = Clock()
    workers = [
        RedisLoginLimiter(Redis.from_url(redis_url), max_attempts=3, window_seconds=60, clock=clock)
        for _ in range(2)
    ]
    try:
        # Guesses spread over two workers count as one series.
        await workers[0].failed("a@x", "ip")
        await workers[1].failed("a@x", "ip")
        assert await workers[0].retry_after("a@x", "ip") is None
        await workers[0].failed("a@x", "ip")
        assert await workers[1].retry_after("a@x", "ip") == 60
        clock.now += 61
        assert await workers[1].retry_after("a@x", "ip") is None
        await workers[1].failed("a@x", "ip")
        await workers[0].succeeded("a@x", "ip")
        assert await workers[1].retry_after("a@x", "ip") is None
    finally:
        for worker in workers:
            await worker.redis.aclose()


async def test_an_account_backs_off_in_redis_whatever_the_address(redis_url: str) -> None:
    clock = Clock()
    limiter = RedisLoginLimiter(
        Redis.from_url(redis_url),
        max_attempts=3,
        window_seconds=600,
        account_attempts=4,
        clock=clock,
    )
    try:
        for i in range(4):
            await limiter.failed("a@x", f"10.0.0.{i}")
        assert await limiter.retry_after("a@x", "10.9.9.9") == 1
        clock.now += 1
        await limiter.failed("a@x", "10.9.9.9")
        assert await limiter.retry_after("a@x", "10.8.8.8") == 2
    finally:
        await limiter.redis.aclose()
