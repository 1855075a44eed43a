from __future__ import annotations

import pytest

from pagechat.doctor import diagnose
from pagechat.settings import Settings
from tests.fakes import anthropic_server as fa
from tests.fakes import openai_server as fo


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
