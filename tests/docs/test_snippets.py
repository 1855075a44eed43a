"""Every ```python block of the README and docs/ runs, so the examples people copy work.

A page's blocks run in order in one namespace (a later block uses what an earlier one
defined), in a fresh process each, so the pages and tools they register never meet this
suite's. A block right after `<!-- skip -->` is not run; the test counts them, so a page
cannot stop being tested without it showing here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
_BLOCK = re.compile(r"(<!-- skip -->\s*\n)?```python\n(.*?)```", re.S)


def _blocks(page: Path) -> tuple[list[str], int]:
    run, skipped = [], 0
    for match in _BLOCK.finditer(page.read_text(encoding="utf-8")):
        if match.group(1):
            skipped += 1
        else:
            run.append(match.group(2))
    return run, skipped


def test_no_block_is_skipped() -> None:
    skipped = {page.name: n for page in PAGES if (n := _blocks(page)[1])}
    assert skipped == {}


@pytest.mark.parametrize("page", [p for p in PAGES if _blocks(p)[0]], ids=lambda p: p.name)
def test_a_pages_python_blocks_run(page: Path, tmp_path: Path) -> None:
    code = "\n\n".join(_blocks(page)[0])
    script = tmp_path / f"{page.stem}_snippets.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{page.name}'s snippets failed:\n{done.stderr[-4000:]}"


def test_the_pages_with_snippets_are_the_ones_that_teach_the_api() -> None:
    with_code = {p.name for p in PAGES if _blocks(p)[0]}
    assert {"tools.md", "pages.md", "testing.md"} <= with_code
