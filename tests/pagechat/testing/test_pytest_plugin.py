"""The pytest plugin in a new project with no pytest configuration: its async tests run and
`pagechat_app` is its app, found by marker, PAGECHAT_APP or pyproject.toml.

Each test writes a small project and runs pytest on it in a subprocess. The plugin loads
through the entry point pyproject.toml declares, put on the path as an installed
distribution's metadata would be, so what is checked is what `pip install pagechat` gives.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

SRC = Path(__file__).resolve().parents[3] / "src"
PYPROJECT = SRC.parent / "pyproject.toml"

TODO_APP = """
from typing import Any

from pagechat.pages import PayloadConfig, register_page
from pagechat.server import create_app_from_settings
from pagechat.tools import ToolConfig, ToolResult

SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def add_todo(params: dict[str, Any], ctx: Any) -> ToolResult:
    return ToolResult("Added.", payload={"type": "todo", "data": params})


def create_app(settings=None, *, model=None):
    register_page(
        "todo",
        instructions="You keep the user's to-do list.",
        payloads=[
            PayloadConfig(
                type="todo",
                parse_marker="TODO:",
                llm_instructions="Propose one as TODO: {...}",
                schema=SCHEMA,
            )
        ],
        tools=[
            ToolConfig(
                name="add_todo", description="Add a to-do.", input_schema=SCHEMA, executor=add_todo
            )
        ],
    )
    return create_app_from_settings(settings, model=model)
"""

OTHER_APP = """
from pagechat.pages import register_page
from pagechat.server import create_app_from_settings


def create_app(settings=None, *, model=None):
    register_page("other", instructions="Another app's page.")
    return create_app_from_settings(settings, model=model)
"""

TODO_TESTS = """
import asyncio

import pytest

from pagechat.testing import tool_call


async def test_a_todo_comes_back_as_a_card(pagechat_app):
    pagechat_app.script([tool_call("add_todo", {"text": "buy milk"})], ["Added it."])
    turn = await pagechat_app.client.chat("remember milk", page="todo")
    card = turn.payload.custom_payload
    assert (card.type, card.data) == ("todo", {"text": "buy milk"})


async def test_the_client_fixture_is_the_apps_user(pagechat_app, pagechat_client):
    pagechat_app.script("Hi.")
    turn = await pagechat_client.chat("hello", page="todo")
    assert turn.payload.message == "Hi."


@pytest.mark.pagechat_app("other_app:create_app")
async def test_a_marker_names_another_factory(pagechat_app):
    pages = await pagechat_app.http.get("/api/pages", headers=pagechat_app.account.headers)
    assert pages.json()["pages"] == ["other"]


@pytest.fixture
async def greeting():
    await asyncio.sleep(0)
    yield "Hello from a fixture."


async def test_a_plain_async_fixture_runs_too(pagechat_app, greeting):
    pagechat_app.script(greeting)
    turn = await pagechat_app.client.chat("hi", page="todo")
    assert turn.text == "Hello from a fixture."


def test_a_plain_test_is_left_alone():
    assert True
"""

PAGES_TEST = """
async def test_the_app_runs(pagechat_app):
    pages = await pagechat_app.http.get("/api/pages", headers=pagechat_app.account.headers)
    assert pages.json()["pages"] == ["todo"]
"""

MISNAMED_TEST = """

import pytest


@pytest.mark.pagechat_app("no_such_app:create_app")
async def test_a_misnamed_app(pagechat_app):
    pass
"""


def _entry_points(where: Path) -> Path:
    """pyproject.toml's pytest11 entry points as an installed distribution's metadata."""
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"]["pytest11"]
    info = where / "pagechat_plugin_check-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pagechat-plugin-check\nVersion: 0\n"
    )
    lines = [f"{name} = {target}" for name, target in declared.items()]
    (info / "entry_points.txt").write_text("[pytest11]\n" + "\n".join(lines) + "\n")
    return where


def _project(root: Path, *, tool_pagechat: bool, tests: str) -> Path:
    project = root / "project"
    (project / "tests").mkdir(parents=True)
    pyproject = '[project]\nname = "todo"\nversion = "0"\n'
    if tool_pagechat:
        pyproject += '\n[tool.pagechat]\napp = "todo_app:create_app"\n'
    (project / "pyproject.toml").write_text(pyproject)
    (project / "todo_app.py").write_text(textwrap.dedent(TODO_APP))
    (project / "other_app.py").write_text(textwrap.dedent(OTHER_APP))
    (project / "tests" / "test_todo.py").write_text(textwrap.dedent(tests))
    return project


def _pytest(project: Path, *, app_env: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PAGECHAT_"))}
    metadata = _entry_points(project.parent / "site")
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(metadata)])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if app_env is not None:
        env["PAGECHAT_APP"] = app_env
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    command += ["--rootdir", str(project), "-c", str(project / "pyproject.toml"), "tests"]
    return subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=240
    )


def test_a_project_without_pytest_config_runs_its_async_tests_on_its_app(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, tool_pagechat=True, tests=TODO_TESTS)

    done = _pytest(project)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout, done.stdout
    assert "requested async" not in done.stdout  # no fixture left to pytest-asyncio's warning
    assert "mode=Mode.STRICT" in done.stdout  # pytest-asyncio's default: nothing was set


def test_the_app_can_be_named_by_the_environment(tmp_path: Path) -> None:
    project = _project(tmp_path, tool_pagechat=False, tests=PAGES_TEST)

    done = _pytest(project, app_env="todo_app:create_app")

    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_no_app_named_anywhere_is_an_error_naming_the_three_ways(tmp_path: Path) -> None:
    project = _project(tmp_path, tool_pagechat=False, tests=PAGES_TEST + MISNAMED_TEST)

    done = _pytest(project)

    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 errors" in done.stdout
    for way in ("pytest.mark.pagechat_app", "PAGECHAT_APP", "[tool.pagechat] app"):
        assert way in done.stdout
    assert "named by @pytest.mark.pagechat_app" in done.stdout
    assert "cannot import the app module 'no_such_app'" in done.stdout


def test_the_plugin_imports_nothing_of_the_server_until_asked() -> None:
    code = (
        "import sys, pagechat.testing.pytest_plugin; "
        "print(sorted(m for m in ('fastapi', 'uvicorn', 'sqlalchemy') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "[]"
