"""Settings from the environment start where the code's own defaults are."""

from __future__ import annotations

from pagechat.auth import LoginLimiter
from pagechat.chat import ChatConfig
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
