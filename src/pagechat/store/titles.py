"""A conversation's title, made from its first message."""

from __future__ import annotations

__all__ = ["DEFAULT_TITLE", "TITLE_CHARS", "make_title"]

TITLE_CHARS = 60
DEFAULT_TITLE = "New conversation"
_ELLIPSIS = "…"
_TRAILING = " \t,;:.-–—([{"


def make_title(message: str, *, limit: int = TITLE_CHARS) -> str:
    """The message on one line, cut at a word boundary with an ellipsis past `limit` characters."""
    flat = " ".join(message.split())
    if not flat:
        return DEFAULT_TITLE
    if len(flat) <= limit:
        return flat
    head = flat[: limit - 1]
    if flat[limit - 1] != " ":
        # The cut falls inside a word: drop that word, unless it is most of the title
        # (a URL, say), which is then cut mid-word.
        cut = head.rfind(" ")
        if cut >= limit // 2:
            head = head[:cut]
    return (head.rstrip(_TRAILING) or head) + _ELLIPSIS
