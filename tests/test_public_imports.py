"""Apps and the code people copy import pagechat's public names from where they are exported.

Horizon, the examples, the docs' and README's ```python blocks and the `pagechat new`
templates are what an app's author reads and copies, so each of their imports of
pagechat names from the module that exports them: never a `_private` module, always a
name in the module's `__all__`, and from the package when the package exports it (not
from the submodule that happens to define it). Inside an app, one package does not
reach into another's private module either (`from ..pages._state import ...`).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from string import Template

REPO = Path(__file__).resolve().parents[1]
_SNIPPET = re.compile(r"```python\n(.*?)```", re.S)
_TEMPLATES = REPO / "src" / "pagechat" / "scaffold" / "template"


def _sources() -> Iterator[tuple[str, str]]:
    """(where, code) of every piece of app code: files, templates, docs' blocks."""
    for folder in ("apps", "examples"):
        for path in sorted((REPO / folder).rglob("*.py")):
            yield str(path.relative_to(REPO)), path.read_text(encoding="utf-8")
    for path in sorted(_TEMPLATES.rglob("*.py.tmpl")):
        text = Template(path.read_text(encoding="utf-8"))
        yield str(path.relative_to(REPO)), text.safe_substitute(name="app", package="app")
    for page in [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]:
        blocks = _SNIPPET.findall(page.read_text(encoding="utf-8"))
        for number, code in enumerate(blocks, 1):
            yield f"{page.relative_to(REPO)} block {number}", code


def _is_private(module: str) -> bool:
    return any(part.startswith("_") and part != "__future__" for part in module.split("."))


def _is_submodule(module: str, name: str) -> bool:
    """`from module import name` where `module` is a package and `name` one of its modules."""
    if not hasattr(importlib.import_module(module), "__path__"):
        return False
    return importlib.util.find_spec(f"{module}.{name}") is not None


def _problems_of_import(node: ast.ImportFrom) -> Iterator[str]:
    module = node.module or ""
    if node.level:
        # Relative: only a sibling's private module (same package) is fair.
        if node.level > 1 and _is_private(module):
            yield f"reaches into another package's private module {'.' * node.level}{module}"
        return
    if module.split(".")[0] != "pagechat":
        return
    if _is_private(module):
        yield f"imports the private module {module}"
        return
    exported = getattr(importlib.import_module(module), "__all__", None)
    parts = module.split(".")
    for alias in node.names:
        name = alias.name
        if exported is not None and name not in exported and not _is_submodule(module, name):
            yield f"imports {name} from {module}, which does not export it"
        # The root `pagechat` exports only its version; a subpackage is where names live.
        for depth in range(2, len(parts)):
            package = ".".join(parts[:depth])
            if name in getattr(importlib.import_module(package), "__all__", ()):
                yield f"imports {name} from {module}; {package} exports it"
                break


def _problems(code: str) -> Iterator[str]:
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom):
            yield from _problems_of_import(node)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "pagechat" and _is_private(alias.name):
                    yield f"imports the private module {alias.name}"


def test_app_code_imports_public_names_from_where_they_are_exported() -> None:
    found = [f"{where}: {problem}" for where, code in _sources() for problem in _problems(code)]
    assert found == []


def test_the_check_sees_every_kind_of_wrong_import() -> None:
    code = (
        "from pagechat.models._sse import sse_data\n"
        "import pagechat.models._transport\n"
        "from pagechat.pages.context import page_context_in\n"
        "from pagechat.pages import not_a_name\n"
        "from ..pages._state import first\n"
        "from ._instructions import payload_instructions\n"
        "from pagechat.pages import page_context_in, config\n"
    )
    assert list(_problems(code)) == [
        "imports the private module pagechat.models._sse",
        "imports the private module pagechat.models._transport",
        "imports page_context_in from pagechat.pages.context; pagechat.pages exports it",
        "imports not_a_name from pagechat.pages, which does not export it",
        "reaches into another package's private module ..pages._state",
    ]
