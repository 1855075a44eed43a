"""Every public class, function and method of pagechat says what it is for (issue 30).

Public means named in its module's `__all__` and defined in that module; a class's
public methods are those defined on the class itself whose names do not start with
`_`. A method that overrides a documented one of a base class is documented by it.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import pagechat

_SKIPPED_PACKAGES = ("pagechat.store.migrations",)
"""Alembic revisions: scripts run by Alembic, not an API."""

_OPTIONAL_EXTRAS = ("redis", "mcp", "ag_ui", "opentelemetry")


def _modules() -> Iterator[ModuleType]:
    yield pagechat
    for info in pkgutil.walk_packages(pagechat.__path__, "pagechat."):
        if info.name.startswith(_SKIPPED_PACKAGES):
            continue
        try:
            yield importlib.import_module(info.name)
        except ImportError as error:
            missing = error.name or str(error)
            if not any(
                missing == extra or missing.startswith(extra + ".") for extra in _OPTIONAL_EXTRAS
            ):
                raise
            continue


def _own_doc(cls: type) -> str | None:
    """The class's own docstring, not one inherited nor one made by dataclass/NamedTuple."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str):
        return None
    generated = dataclasses.is_dataclass(cls) or hasattr(cls, "_fields")
    if generated and doc.startswith(f"{cls.__name__}("):
        return None
    return doc


def _is_method(value: Any) -> bool:
    return isinstance(value, property | classmethod | staticmethod) or inspect.isfunction(value)


def _undocumented() -> Iterator[str]:
    for module in _modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            qualified = f"{module.__name__}.{name}"
            if inspect.isfunction(obj):
                if not (obj.__doc__ or "").strip():
                    yield qualified
                continue
            if not (_own_doc(obj) or "").strip():
                yield qualified
            for attr, value in vars(obj).items():
                if attr.startswith("_") or not _is_method(value):
                    continue
                if not (inspect.getdoc(getattr(obj, attr)) or "").strip():
                    yield f"{qualified}.{attr}"


def test_every_public_class_function_and_method_has_a_docstring() -> None:
    missing = sorted(set(_undocumented()))
    if missing:
        pytest.fail(f"{len(missing)} without a docstring:\n" + "\n".join(missing), pytrace=False)
