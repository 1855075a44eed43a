"""`pagechat new NAME`: a new app's project in a folder of its own.

The project is what a team needs on its first day: `pyproject.toml` (pagechat with its
test kit, and `[tool.pagechat] app` so `pagechat serve` and the pytest plugin find the
app), one app module (a page, a payload model, a typed tool, and an offline model so it
answers with no API key) and one test file. `pip install -e . && pytest` passes in it.
"""

from __future__ import annotations

import keyword
import re
from importlib.resources import files
from pathlib import Path
from string import Template

from .. import __version__

__all__ = ["ScaffoldError", "new_project"]

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")

# Template file -> where it goes in the project (`{package}` is the import name).
_FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "gitignore.tmpl": ".gitignore",
    "package_init.py.tmpl": "{package}/__init__.py",
    "app.py.tmpl": "{package}/app.py",
    "tests/test_app.py.tmpl": "tests/test_app.py",
}


class ScaffoldError(ValueError):
    """The name cannot be a project's, or its folder is already there."""


def _package_name(name: str) -> str:
    if not _NAME.match(name):
        raise ScaffoldError(
            f"{name!r} is not a project name: start with a letter; letters, digits, - and _ only"
        )
    package = name.replace("-", "_").lower()
    if keyword.iskeyword(package) or package in {"pagechat", "test", "tests"}:
        raise ScaffoldError(f"{name!r} would shadow a Python name: pick another")
    return package


def new_project(name: str, *, parent: Path) -> Path:
    """Write the project `name` into `parent / name` (which must not exist); its path."""
    package = _package_name(name)
    root = parent / name
    if root.exists():
        raise ScaffoldError(f"{root} already exists")
    values = {"name": name, "package": package, "pagechat_version": __version__}
    template = files(__name__) / "template"
    for source, target in _FILES.items():
        text = Template((template / source).read_text(encoding="utf-8")).substitute(values)
        path = root / target.format(package=package)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
