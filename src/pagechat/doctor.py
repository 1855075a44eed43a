"""`pagechat doctor`: which model is active, does it answer, are the database and Redis there?"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass

from .models.base import Model, ModelFinish, ModelRequest, TextDelta, UserTurn
from .models.errors import ModelOutputError, ProviderError
from .models.factory import DEFAULT_MODELS, model_from_settings
from .settings import Settings

__all__ = ["Check", "Diagnosis", "check_database", "check_redis", "diagnose"]

_PROBE = ModelRequest(
    system="You are a health check. Reply with the single word OK.",
    messages=(UserTurn("Are you there?"),),
    max_tokens=16,
)


@dataclass(frozen=True)
class Diagnosis:
    """Whether the configured model answers: provider, model, and what happened."""

    provider: str
    model: str
    ok: bool
    detail: str

    def lines(self) -> list[str]:
        """The diagnosis as lines of `pagechat doctor`'s report."""
        state = "answers" if self.ok else "does not answer"
        return [
            f"provider: {self.provider}",
            f"model:    {self.model}",
            f"status:   {state} — {self.detail}",
        ]


async def _probe(model: Model, wait_seconds: float) -> tuple[bool, str]:
    started = time.perf_counter()
    text: list[str] = []
    try:
        async with asyncio.timeout(wait_seconds):
            async for event in model.stream(_PROBE):
                if isinstance(event, TextDelta):
                    text.append(event.text)
                elif isinstance(event, ModelFinish):
                    break
    except ProviderError as err:
        return False, f"{err.kind}: {err}"
    except ModelOutputError as err:
        return False, f"unusable reply: {err}"
    except TimeoutError:
        return False, f"no answer within {wait_seconds:g} s"
    elapsed = (time.perf_counter() - started) * 1000
    reply = "".join(text).strip().replace("\n", " ")[:60]
    return True, f"replied {reply!r} in {elapsed:.0f} ms"


async def diagnose(settings: Settings, *, wait_seconds: float = 30.0) -> Diagnosis:
    """Send the configured model a short request, to see that the key and model work."""
    provider = settings.active_provider
    if provider == "offline":
        return Diagnosis(
            "offline",
            "(the application's offline model)",
            True,
            "no API key is set; set ANTHROPIC_API_KEY, or OPENAI_API_KEY / OPENAI_BASE_URL, "
            "or PAGECHAT_PROVIDER to use a real model",
        )
    name = settings.model or DEFAULT_MODELS[provider]
    try:
        model = model_from_settings(settings)
    except ProviderError as err:
        return Diagnosis(provider, name, False, f"{err.kind}: {err}")
    ok, detail = await _probe(model, wait_seconds)
    return Diagnosis(provider, name, ok, detail)


@dataclass(frozen=True)
class Check:
    """One service the server needs, and whether it is usable."""

    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        """The check as one line of `pagechat doctor`'s report."""
        return f"{self.name + ':':9} {'ok' if self.ok else 'FAILED'} — {self.detail}"


async def check_database(settings: Settings, *, wait_seconds: float = 10.0) -> Check:
    """Whether the database answers (and, for SQLite, whether its file exists yet)."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    from .store.db import create_engine, display_url, is_sqlite

    url = settings.database_url
    shown = display_url(url)
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:" and not os.path.exists(database):  # noqa: ASYNC240 (one stat)
            # Connecting would create an empty file; say what creates the real one.
            return Check("database", False, f"{shown} does not exist yet (pagechat db upgrade)")
    engine = create_engine(url)
    try:
        async with asyncio.timeout(wait_seconds), engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as exc:  # any driver's failure is the answer here
        return Check("database", False, f"{shown}: {type(exc).__name__}: {exc}")
    finally:
        await engine.dispose()
    return Check("database", True, f"{shown} answers")


async def check_redis(settings: Settings, *, wait_seconds: float = 10.0) -> Check:
    """Whether Redis answers, when one is configured."""
    from redis.asyncio import Redis
    from redis.exceptions import RedisError

    if settings.redis_url is None:
        return Check("redis", True, "not configured: one worker, answers' events in memory")
    client = Redis.from_url(settings.redis_url, socket_timeout=wait_seconds)
    try:
        async with asyncio.timeout(wait_seconds):
            info = await client.info("server")
            policy = await client.config_get("maxmemory-policy")
    except (RedisError, TimeoutError) as exc:
        return Check("redis", False, f"not reachable: {exc}")
    finally:
        await client.aclose()
    detail = f"redis {info.get('redis_version', '?')} answers"
    evicting = policy.get("maxmemory-policy", "noeviction") not in ("noeviction", "volatile-lru")
    if evicting:
        # An evicted run log loses events a client is about to resume from.
        return Check("redis", False, f"{detail}, but maxmemory-policy evicts keys without TTL")
    return Check("redis", True, detail)
