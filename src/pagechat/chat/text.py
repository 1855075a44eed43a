"""What the model and the tools write, made storable before anyone sees it.

Client input with a NUL or a lone surrogate is refused (`protocol._storable`), but the
model and the tools are not asked: a NUL in their text would make PostgreSQL refuse
the finished answer (text and JSON columns cannot hold it), and a lone surrogate cannot
be encoded as UTF-8 for the stream or any database. Both become U+FFFD, once, before
the text is streamed, so what is stored is still exactly what the user saw.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["storable", "storable_text"]

_REPLACEMENT = "\ufffd"

T = TypeVar("T")


def storable_text(text: str) -> str:
    """`text` with what the database cannot store (NUL, lone surrogates) replaced."""
    if "\x00" in text:
        text = text.replace("\x00", _REPLACEMENT)
    try:
        text.encode()
    except UnicodeEncodeError:
        # Lone surrogates become U+FFFD; a well-formed pair decodes to its character.
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def storable(value: T) -> T:
    """`value` with every string in it (dict keys included) made storable."""
    return _clean(value)  # type: ignore[no-any-return]


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value
