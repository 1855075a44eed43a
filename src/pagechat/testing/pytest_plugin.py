"""The pytest plugin of pagechat.testing: a project's tests need no pytest configuration.

Installing pagechat registers it (entry point `pytest11`); elsewhere, `-p
pagechat.testing.pytest_plugin`. With it:

- an `async def` test runs in an event loop (pytest-asyncio, the `testing` extra) even
  in pytest-asyncio's default strict mode, where it would otherwise be skipped with a
  warning; a test already marked for asyncio, anyio or trio is left as it is, and the
  plain `@pytest.fixture async def` fixtures such a test asks for run in its loop;
- the fixture `pagechat_app` is a `LiveApp` (`running_app`) of the project's app factory,
  named by the first of: a `@pytest.mark.pagechat_app("pkg.module:factory")` marker
  (optionally `settings={...}`), the `PAGECHAT_APP` environment variable, or
  `[tool.pagechat] app = "pkg.module:factory"` in the pyproject.toml nearest pytest's
  rootdir; `pagechat_client` is its client.

pytest loads this module in every project where pagechat is installed, most of which
never ask for the fixture: the server and the rest of the kit are imported by the fixture,
not here, and without pytest-asyncio the plugin only says, when asked for the fixture,
what to install.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import AsyncIterator, Callable, Generator
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

from ..apps import configured_app, nearest_pyproject

if TYPE_CHECKING:
    from ..apps import AppFactory
    from .app import LiveApp
    from .client import ChatClient

__all__ = [
    "APP_ENV",
    "AppChoice",
    "find_app_factory",
    "pagechat_app",
    "pagechat_client",
    "pytest_configure",
    "pytest_fixture_setup",
    "pytest_pycollect_makeitem",
]

APP_ENV = "PAGECHAT_APP"
"""The environment variable that names the app factory (as for `pagechat serve`)."""

_ASYNC_MARKERS = ("asyncio", "anyio", "trio")
_HAVE_PYTEST_ASYNCIO = find_spec("pytest_asyncio") is not None


def pytest_configure(config: pytest.Config) -> None:
    """Register the `pagechat_app` marker (so `--strict-markers` accepts it)."""
    config.addinivalue_line(
        "markers",
        "pagechat_app(factory, settings=None): the app factory (`pkg.module:factory` or a "
        "callable) and settings of the `pagechat_app` fixture",
    )


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_pycollect_makeitem(
    collector: pytest.Module | pytest.Class, name: str, obj: object
) -> Generator[None, Any, Any]:
    """Mark each collected coroutine test for asyncio, unless it is marked for a loop already.

    trylast makes this wrapper the inner one: it marks the items before pytest-asyncio's
    own wrapper looks for the marker and turns them into tests it runs in a loop.
    """
    result = yield
    if not _HAVE_PYTEST_ASYNCIO or not result:
        return result
    for item in result if isinstance(result, list) else [result]:
        if (
            isinstance(item, pytest.Function)
            and inspect.iscoroutinefunction(item.obj)
            and not any(item.get_closest_marker(m) for m in _ASYNC_MARKERS)
        ):
            item.add_marker("asyncio")
    return result


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
) -> Generator[None, Any, Any]:
    """In strict mode, a plain `@pytest.fixture async def` that an asyncio test asks for is
    declared for pytest-asyncio, as if it were a `@pytest_asyncio.fixture`.

    tryfirst makes this wrapper the outer one: the fixture is declared before
    pytest-asyncio's own wrapper decides whether it runs it. Only fixtures a test marked
    for asyncio asks for directly (function scope) are touched: an anyio or trio test's
    fixtures stay its plugin's.
    """
    func = fixturedef.func
    node = request.node
    if (
        _HAVE_PYTEST_ASYNCIO
        and fixturedef.scope == "function"
        and (inspect.iscoroutinefunction(func) or inspect.isasyncgenfunction(func))
        and isinstance(node, pytest.Function)
        and node.get_closest_marker("asyncio") is not None
        and _asyncio_mode(request.config) == "strict"
    ):
        import pytest_asyncio

        # The decorator marks the function itself; the fixture it returns is not needed.
        pytest_asyncio.fixture(func)
    return (yield)


def _asyncio_mode(config: pytest.Config) -> str:
    return str(config.getoption("asyncio_mode", None) or config.getini("asyncio_mode"))


class AppChoice(NamedTuple):
    """The app a test's `pagechat_app` runs, and where that was said."""

    factory: AppFactory | str
    """The factory, or its name: `pkg.module:factory`."""
    settings: dict[str, Any]
    """Environment settings by name, for `running_app` (the marker's `settings=`)."""
    source: str
    """Where the factory was named: the marker, PAGECHAT_APP or a pyproject.toml."""
    home: Path
    """The folder a named module is imported from when it is not installed."""


def find_app_factory(request: pytest.FixtureRequest) -> AppChoice:
    """The app for `request`'s test: its `pagechat_app` marker, else `PAGECHAT_APP`, else
    `[tool.pagechat] app` in the pyproject.toml nearest pytest's rootdir; none fails the
    test, saying so."""
    rootpath = request.config.rootpath
    marker = request.node.get_closest_marker("pagechat_app")
    if marker is not None:
        if len(marker.args) != 1:
            pytest.fail("@pytest.mark.pagechat_app takes one factory: 'pkg.module:factory'")
        settings = dict(marker.kwargs.get("settings") or {})
        return AppChoice(marker.args[0], settings, "@pytest.mark.pagechat_app", rootpath)
    named = os.environ.get(APP_ENV)
    if named:
        return AppChoice(named, {}, APP_ENV, rootpath)
    pyproject = nearest_pyproject(rootpath)
    app = configured_app(rootpath)
    if pyproject is not None and app is not None:
        return AppChoice(app, {}, str(pyproject), pyproject.parent)
    where = pyproject or f"a pyproject.toml at or above {rootpath}"
    pytest.fail(
        "pagechat_app does not know which app to run. Name its factory in one of three ways: "
        "@pytest.mark.pagechat_app('pkg.module:factory') on the test, the PAGECHAT_APP "
        f"environment variable, or [tool.pagechat] app = 'pkg.module:factory' in {where}",
        pytrace=False,
    )


async def _live_app(request: pytest.FixtureRequest) -> AsyncIterator[LiveApp]:
    from ..apps import AppNotFound, load_app_factory
    from .app import running_app

    choice = find_app_factory(request)
    factory = choice.factory
    if isinstance(factory, str):
        # A module beside the project's pyproject.toml imports without being installed.
        try:
            factory = load_app_factory(factory, app_dir=choice.home)
        except AppNotFound as exc:
            pytest.fail(f"pagechat_app (named by {choice.source}): {exc}", pytrace=False)
    async with running_app(factory, settings=choice.settings) as app:
        yield app


def _without_pytest_asyncio() -> LiveApp:
    pytest.fail(
        "pagechat_app is an async fixture and needs pytest-asyncio: "
        "pip install 'pagechat[testing]'",
        pytrace=False,
    )


def _asyncio_fixture() -> Callable[..., Any]:
    if not _HAVE_PYTEST_ASYNCIO:
        return pytest.fixture(_without_pytest_asyncio, name="pagechat_app")
    import pytest_asyncio

    # Declared for pytest-asyncio explicitly: in strict mode it runs no other async fixture.
    # The loop is the function's, as a test's is by default: the server runs as a task of
    # the loop the test awaits in.
    return pytest_asyncio.fixture(_live_app, name="pagechat_app", loop_scope="function")


pagechat_app = _asyncio_fixture()
"""The running app of the project's factory (`LiveApp`), one per test."""


@pytest.fixture
def pagechat_client(pagechat_app: LiveApp) -> ChatClient:
    """`pagechat_app`'s chat client, acting as its user."""
    return pagechat_app.client
