"""`pagechat new`: what it writes, and the names and folders it refuses.

The project it writes is installed and tested for real in tests/test_distributions.py.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pagechat.apps import configured_app
from pagechat.cli import main
from pagechat.scaffold import ScaffoldError, new_project


def test_a_new_project_has_its_pyproject_app_and_tests(tmp_path: Path) -> None:
    root = new_project("My-App", parent=tmp_path)

    config = tomllib.loads((root / "pyproject.toml").read_text())
    assert config["project"]["name"] == "My-App"
    assert config["tool"]["pagechat"]["app"] == "my_app.app:create_app"
    assert any(d.startswith("pagechat[testing]") for d in config["project"]["dependencies"])
    assert (root / "my_app/app.py").is_file() and (root / "my_app/__init__.py").is_file()
    assert "from my_app.app import" in (root / "tests/test_app.py").read_text()
    assert "[tool.pytest" not in (root / "pyproject.toml").read_text()


def test_the_project_names_its_app_for_serve(tmp_path: Path) -> None:
    root = new_project("notes2", parent=tmp_path)
    (root / "tests" / "deeper").mkdir()

    assert configured_app(root) == "notes2.app:create_app"
    assert configured_app(root / "tests" / "deeper") == "notes2.app:create_app"
    assert configured_app(tmp_path) is None


@pytest.mark.parametrize("name", ["1app", "my app", "class", "pagechat", "../up", ""])
def test_a_name_that_cannot_be_a_package_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ScaffoldError):
        new_project(name, parent=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("mine")

    with pytest.raises(ScaffoldError, match="already exists"):
        new_project("taken", parent=tmp_path)
    assert (tmp_path / "taken" / "keep.txt").read_text() == "mine"
    assert sorted(p.name for p in (tmp_path / "taken").iterdir()) == ["keep.txt"]


def test_the_command_says_what_to_do_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "shop", "--directory", str(tmp_path)]) == 0
    assert "pip install -e . && pytest" in capsys.readouterr().out

    assert main(["new", "shop", "--directory", str(tmp_path)]) == 1
    assert "already exists" in capsys.readouterr().err
