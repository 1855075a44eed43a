"""Loading an application named `package.module:factory`, for `pagechat serve --app` and tests.

An app factory is a callable `factory(settings=None, *, model=None) -> FastAPI`, as
`pagechat.server.create_app_from_settings` and `horizon.app.create_app` are: `settings`
None reads the environment, `model` None uses the model the settings select.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .chat.service import ModelSource
    from .settings import Settings

__all__ = ["AppFactory", "AppNotFound", "configured_app", "load_app_factory", "nearest_pyproject"]


class AppFactory(Protocol):
    """What `package.module:factory` must name: settings and model in, a FastAPI app out."""

    def __call__(
        self, settings: Settings | None = None, *, model: ModelSource | None = None
    ) -> FastAPI: ...


def nearest_pyproject(directory: Path) -> Path | None:
    """The pyproject.toml in `directory` or the nearest folder above it, or None."""
    for folder in (directory, *directory.parents):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            return pyproject
    return None


def configured_app(directory: Path) -> str | None:
    """The `module:factory` that `[tool.pagechat] app` names in the nearest pyproject.toml
    at or above `directory` (what `pagechat new` writes), or None."""
    pyproject = nearest_pyproject(directory)
    if pyproject is None:
        return None
    try:
        config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    app = config.get("tool", {}).get("pagechat", {}).get("app")
    return app if isinstance(app, str) and app else None


class AppNotFound(Exception):
    """The `module:factory` given does not name an importable app factory (the caller's mistake)."""


def load_app_factory(spec: str | None, *, app_dir: Path | None = None) -> AppFactory:
    """The factory `spec` names (`module` alone means `module:create_app`); None: plain pagechat.

    `app_dir`, when given, goes first on `sys.path`, as uvicorn's `--app-dir` does, so a
    module beside the caller imports without being installed.
    """
    if not spec:
        from .server.app import create_app_from_settings

        return create_app_from_settings
    module_name, _, attr = spec.partition(":")
    if app_dir is not None and str(app_dir) not in sys.path:
        sys.path.insert(0, str(app_dir))
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name or module_name.startswith(f"{exc.name}."):
            raise AppNotFound(
                f"cannot import the app module {module_name!r}: no module named {exc.name!r} on "
                f"the Python path. Install the app's package (pip install -e .), run pagechat from "
                f"the directory that holds it, or add that directory to PYTHONPATH."
            ) from None
        raise AppNotFound(
            f"the app module {module_name!r} was found but failed to import: {exc}"
        ) from exc
    factory = getattr(module, attr or "create_app", None)
    if not callable(factory):
        raise AppNotFound(
            f"{spec!r} does not name an app factory: module {module_name!r} has no callable "
            f"{attr or 'create_app'!r}"
        )
    loaded: AppFactory = factory
    return loaded
