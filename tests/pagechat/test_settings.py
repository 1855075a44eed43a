"""Settings from the environment start where the code's own defaults are."""

from __future__ import annotations

import pydantic
import pytest

from pagechat.auth import LoginLimiter
from pagechat.chat import ChatConfig
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.factory import model_from_settings
from pagechat.settings import Settings


def test_the_chat_settings_default_to_the_chat_configs_defaults() -> None:
    settings, config = Settings.model_validate({}), ChatConfig()

    assert (
        settings.max_iterations,
        settings.max_tokens,
        settings.temperature,
        settings.history_budget,
        settings.checkpoint_seconds,
    ) == (
        config.max_iterations,
        config.max_tokens,
        config.temperature,
        config.history_budget,
        config.checkpoint_seconds,
    )


def test_the_login_limits_default_to_the_settings_defaults() -> None:
    settings, limiter = Settings.model_validate({}), LoginLimiter()

    assert (settings.login_max_attempts, settings.login_window_seconds) == (
        limiter.max_attempts,
        limiter.window_seconds,
    )


def test_extended_thinking_is_off_unless_its_budget_is_set() -> None:
    keys = {"PAGECHAT_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "k"}
    off = model_from_settings(Settings.model_validate(keys))
    on = model_from_settings(Settings.model_validate(keys | {"PAGECHAT_THINKING_BUDGET": 4096}))

    assert isinstance(off, AnthropicModel) and off.thinking_budget is None
    assert isinstance(on, AnthropicModel) and on.thinking_budget == 4096


def test_a_thinking_budget_under_the_apis_minimum_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError):
        Settings.model_validate({"PAGECHAT_THINKING_BUDGET": 100})
