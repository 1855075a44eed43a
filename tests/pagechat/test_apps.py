"""Loading an app factory from `module:factory`: what a user who got it wrong is told."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pagechat.apps import AppNotFound, load_app_factory
from pagechat.server import create_app_from_settings


@pytest.fixture
def app_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("good_app", "broken_app"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    (tmp_path / "good_app.py").write_text("def create_app(settings=None, *, model=None): ...\n")
    (tmp_path / "broken_app.py").write_text("import a_dependency_that_is_missing\n")
    return tmp_path


def test_no_app_is_plain_pagechat() -> None:
    assert load_app_factory(None) is create_app_from_settings


def test_a_module_alone_means_its_create_app(app_dir: Path) -> None:
    factory = load_app_factory("good_app", app_dir=app_dir)

    assert factory.__name__ == "create_app"  # type: ignore[attr-defined]


def test_a_module_not_on_the_path_says_how_to_make_it_importable() -> None:
    with pytest.raises(AppNotFound, match=r"no module named 'not_here'.*PYTHONPATH"):
        load_app_factory("not_here.app:create_app")


def test_a_module_whose_own_import_fails_says_so(app_dir: Path) -> None:
    with pytest.raises(AppNotFound, match="'broken_app' was found but failed to import"):
        load_app_factory("broken_app:create_app", app_dir=app_dir)


def test_a_missing_factory_names_the_attribute(app_dir: Path) -> None:
    with pytest.raises(AppNotFound, match="has no callable 'make_it'"):
        load_app_factory("good_app:make_it", app_dir=app_dir)
