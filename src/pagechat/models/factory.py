"""Choosing the model from settings: `PAGECHAT_PROVIDER`, `PAGECHAT_MODEL` and the keys."""

from __future__ import annotations

from collections.abc import Callable

from ..settings import Settings
from .base import Model
from .testing import FunctionModel

__all__ = ["DEFAULT_MODELS", "model_from_settings", "unconfigured_model"]

DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-6", "openai": "gpt-4o-mini"}

_UNCONFIGURED = (
    "No language model is configured, and this app has no offline model. Set ANTHROPIC_API_KEY "
    "(or OPENAI_API_KEY / OPENAI_BASE_URL for an OpenAI-compatible server) and restart."
)


def unconfigured_model() -> Model:
    """Answers every message by saying how to configure a model."""
    model = FunctionModel(lambda request: _UNCONFIGURED)
    model.provider = model.name = "unconfigured"
    return model


def model_from_settings(settings: Settings, *, offline: Callable[[], Model] | None = None) -> Model:
    """The model the settings select; `offline` builds the app's offline model."""
    model = _provider_model(settings)
    if model is None:
        return offline() if offline is not None else unconfigured_model()
    model.accepts_images = settings.model_images
    return model


def _provider_model(settings: Settings) -> Model | None:
    """The Anthropic or OpenAI-compatible model the settings name, or None."""
    provider = settings.active_provider
    if provider == "anthropic":
        from .anthropic import AnthropicModel

        return AnthropicModel(
            settings.model or DEFAULT_MODELS["anthropic"],
            api_key=settings.anthropic_api_key,
            base_url=settings.anthropic_base_url,
            thinking_budget=settings.thinking_budget,
        )
    if provider == "openai":
        from .openai import OpenAIModel

        return OpenAIModel(
            settings.model or DEFAULT_MODELS["openai"],
            api_key=settings.openai_api_key,
            base_url=settings.openai_base_url,
        )
    return None
