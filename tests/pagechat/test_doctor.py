from __future__ import annotations

from pathlib import Path

import pytest

from pagechat.doctor import check_database, check_redis, diagnose
from pagechat.settings import Settings
from pagechat.store import create_engine, upgrade_async
from pagechat.testing import free_port
from tests.fakes import anthropic_server as fa
from tests.fakes import openai_server as fo
from tests.support.redis_server import RedisServer


def _settings(**env: str) -> Settings:
    return Settings.model_validate(env)


async def test_doctor_reports_offline_without_keys() -> None:
    d = await diagnose(_settings())
    assert d.provider == "offline" and d.ok
    assert "ANTHROPIC_API_KEY" in "\n".join(d.lines())


async def test_doctor_sees_the_anthropic_model_answer() -> None:
    with fa.FakeAnthropic(fa.reply("OK")) as fake:
        d = await diagnose(
            _settings(
                ANTHROPIC_API_KEY="test-key",
                ANTHROPIC_BASE_URL=fake.base_url,
                PAGECHAT_MODEL="claude-haiku-4-5",
            )
        )
    assert (d.provider, d.model, d.ok) == ("anthropic", "claude-haiku-4-5", True)
    assert "'OK'" in d.detail


async def test_doctor_reports_a_bad_key_without_leaking_it() -> None:
    with fo.FakeOpenAI([fo.unauthorized()]) as fake:
        d = await diagnose(_settings(OPENAI_API_KEY="sk-secret-123", OPENAI_BASE_URL=fake.base_url))
    assert d.provider == "openai" and not d.ok
    assert d.detail.startswith("auth:") and "sk-secret-123" not in d.detail


@pytest.mark.parametrize(
    "env", [{"PAGECHAT_PROVIDER": "openai", "OPENAI_BASE_URL": fo.closed_port_url()}]
)
async def test_doctor_reports_an_unreachable_server(env: dict[str, str]) -> None:
    d = await diagnose(_settings(**env), wait_seconds=10)
    assert not d.ok and d.detail.startswith("connection:")


async def test_doctor_sees_the_database_answer(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    await upgrade_async(engine)
    await engine.dispose()
    check = await check_database(_settings(DATABASE_URL=sqlite_url))
    assert check.ok and "answers" in check.detail


async def test_doctor_says_a_missing_sqlite_file_needs_creating(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/absent.db"
    check = await check_database(_settings(DATABASE_URL=url))
    assert not check.ok and "pagechat db upgrade" in check.detail
    assert not (tmp_path / "absent.db").exists()


async def test_doctor_reports_a_database_it_cannot_reach() -> None:
    url = f"postgresql+asyncpg://nobody@127.0.0.1:{free_port()}/none"
    check = await check_database(_settings(DATABASE_URL=url), wait_seconds=5)
    assert not check.ok and "127.0.0.1" in check.detail


async def test_doctor_sees_redis_answer(redis_url: str) -> None:
    check = await check_redis(_settings(REDIS_URL=redis_url))
    assert check.ok and check.detail.startswith("redis ")


async def test_doctor_reports_redis_down(redis_server: RedisServer) -> None:
    redis_server.stop()
    check = await check_redis(_settings(REDIS_URL=redis_server.url), wait_seconds=5)
    assert not check.ok and "not reachable" in check.detail


async def test_without_redis_the_doctor_says_one_worker() -> None:
    check = await check_redis(_settings())
    assert check.ok and "one worker" in check.detail
