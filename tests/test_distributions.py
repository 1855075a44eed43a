"""The two distributions, installed as a team outside this repository would install them.

Both wheels are built from this checkout; pagechat's goes into a fresh virtualenv in a
temporary folder (its dependencies from the package index, pinned by the lock file).
There `pagechat new` scaffolds a project, whose own tests pass with no configuration,
and `pagechat serve` run from its folder serves the UI packaged in the wheel and an
answer whose tool result is a card.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pagechat.testing import free_port

REPO = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{args} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def _clean_env(home: Path) -> dict[str, str]:
    """The user's environment without this repository's settings, keys or Python path."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PAGECHAT_", "ANTHROPIC_", "OPENAI_", "DATABASE_URL", "REDIS_URL"))
        and k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS"}
    }
    return env | {"PAGECHAT_STATE_DIR": str(home / "state")}


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    assert (REPO / "src/pagechat/web/index.html").is_file(), "build the UI first: make web"
    # Built from a copy of the sources: setuptools' build/ folders stay out of the
    # checkout, and nothing a former build left there can slip into these wheels.
    source = tmp_path_factory.mktemp("source")
    skip = shutil.ignore_patterns("__pycache__", "build", "*.egg-info")
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / part, source / part)
    shutil.copytree(REPO / "src", source / "src", ignore=skip)
    shutil.copytree(REPO / "apps/horizon", source / "apps/horizon", ignore=skip)
    out = tmp_path_factory.mktemp("wheels")
    _run(
        sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "-w", out, source, source / "apps/horizon",
        cwd=source, env=dict(os.environ),
    )  # fmt: skip
    return {path.name.split("-")[0]: path for path in out.glob("*.whl")}


@pytest.fixture(scope="module")
def venv(wheels: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv outside the repository with the pagechat wheel and its test kit."""
    root = tmp_path_factory.mktemp("outside")
    _run(sys.executable, "-m", "venv", root / "venv", cwd=root, env=_clean_env(root))
    pip = root / "venv/bin/pip"
    wheel = f"{wheels['pagechat']}[testing]"
    lock = REPO / "requirements.lock"
    _run(pip, "install", "--quiet", "-c", lock, wheel, cwd=root, env=_clean_env(root))
    return root / "venv"


def test_the_pagechat_wheel_carries_the_ui_and_not_the_reference_app(
    wheels: dict[str, Path],
) -> None:
    names = zipfile.ZipFile(wheels["pagechat"]).namelist()

    assert "pagechat/web/index.html" in names
    assert any(n.startswith("pagechat/web/assets/") and n.endswith(".js") for n in names)
    assert "pagechat/scaffold/template/app.py.tmpl" in names
    assert not [n for n in names if n.startswith("horizon/")]


def test_the_horizon_wheel_depends_on_pagechat(wheels: dict[str, Path]) -> None:
    archive = zipfile.ZipFile(wheels["horizon"])
    metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    requires = [
        line.split(":", 1)[1].strip()
        for line in archive.read(metadata).decode().splitlines()
        if line.startswith("Requires-Dist:")
    ]

    assert "pagechat" in requires
    assert "horizon/app.py" in archive.namelist()
    assert not [n for n in archive.namelist() if n.startswith("pagechat/")]


def test_the_core_wheel_installs_no_optional_part(venv: Path) -> None:
    installed = _run(venv / "bin/pip", "list", "--format=json", cwd=venv, env=_clean_env(venv))
    names = {package["name"].lower() for package in json.loads(installed)}

    assert "pagechat" in names
    # (opentelemetry-api comes with fastapi and anthropic; the otel extra is its SDK.)
    assert not names & {"redis", "mcp", "ag-ui-protocol", "asyncpg", "opentelemetry-sdk"}
    assert not names & {"lxml", "rapidfuzz", "altair"}  # Horizon's


def test_a_part_whose_extra_is_missing_fails_at_start_naming_it(venv: Path) -> None:
    folder = venv.parent
    env = _clean_env(folder) | {
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "DATABASE_URL": f"sqlite+aiosqlite:///{folder}/extras.db",
    }
    done = subprocess.run(
        [venv / "bin/pagechat", "serve", "--port", str(free_port())],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert done.returncode == 1
    assert "pip install 'pagechat[redis]'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.fixture
def project(venv: Path) -> Iterator[Path]:
    folder = venv.parent
    env = _clean_env(folder)
    _run(venv / "bin/pagechat", "new", "bookmarks-app", cwd=folder, env=env)
    root = folder / "bookmarks-app"
    _run(venv / "bin/pip", "install", "--quiet", "-e", ".", cwd=root, env=env)
    yield root


def test_a_new_project_passes_its_own_tests_and_serves_its_card(venv: Path, project: Path) -> None:
    env = _clean_env(project) | {"DATABASE_URL": f"sqlite+aiosqlite:///{project}/app.db"}
    tested = _run(venv / "bin/pytest", "-q", "-p", "no:cacheprovider", cwd=project, env=env)
    assert " passed" in tested and "failed" not in tested

    _run(
        venv / "bin/pagechat", "users", "create", "ada@example.com", "--password",
        "a long enough password", cwd=project, env=env,
    )  # fmt: skip
    port = free_port()
    # No --app: `[tool.pagechat] app` in the project's pyproject.toml names it.
    server = subprocess.Popen(
        [venv / "bin/pagechat", "serve", "--port", str(port)],
        cwd=project, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            _wait_until_up(client, server)
            page = client.get("/")
            login = client.post(
                "/api/auth/login",
                json={"email": "ada@example.com", "password": "a long enough password"},
            )
            headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
            events = _chat(client, headers, "save https://example.org/paper for me")
            agui = client.post("/api/agui/bookmarks", json={}, headers=headers)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    assert page.status_code == 200 and '<div id="root">' in page.text
    complete = events[-1]
    assert complete["type"] == "complete", events
    card = complete["payload"]["custom_payload"]
    assert card["type"] == "bookmark"
    assert card["data"]["url"] == "https://example.org/paper"
    # AG-UI is an extra this install does not have: a clear answer, not a crash.
    assert agui.status_code == 501 and agui.json()["extra"] == "agui"


def _wait_until_up(client: httpx.Client, server: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        assert server.poll() is None, f"pagechat serve exited with {server.returncode}"
        try:
            if client.get("/api/health").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("pagechat serve did not answer /api/health")


def _chat(client: httpx.Client, headers: dict[str, str], message: str) -> list[dict[str, Any]]:
    body = {"message": message, "context": {"current_page": "bookmarks"}}
    with client.stream("POST", "/api/chat/stream", json=body, headers=headers) as response:
        assert response.status_code == 200, response.read()
        return [
            json.loads(line[len("data:") :])
            for line in response.iter_lines()
            if line.startswith("data:")
        ]
