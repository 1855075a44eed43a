from __future__ import annotations

import pytest

import pagechat.pages.registry
import pagechat.tools.registry


@pytest.fixture(autouse=True)
def _isolated_registries(monkeypatch: pytest.MonkeyPatch) -> None:
    # Fresh page and tool registries per test; whatever app modules registered
    # at import is back in place for the tests that run after these.
    monkeypatch.setattr(pagechat.pages.registry, "_PAGES", {})
    monkeypatch.setattr(pagechat.tools.registry, "_TOOLS", {})
