"""`pagechat doctor`: which model is active, and does it answer?"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from .models.base import Model, ModelFinish, ModelRequest, ModelTextDelta, UserTurn
from .models.errors import ModelOutputError, ProviderError
from .models.factory import DEFAULT_MODELS, model_from_settings
from .settings import Settings

__all__ = ["Diagnosis", "diagnose"]

_PROBE = ModelRequest(
    system="You are a health check. Reply with the single word OK.",
    messages=(UserTurn("Are you there?"),),
    max_tokens=16,
)


@dataclass(frozen=True)
class Diagnosis:
    provider: str
    model: str
    ok: bool
    detail: str

    def lines(self) -> list[str]:
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
                if isinstance(event, ModelTextDelta):
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
