"""A message as conversation search reads it: the text the user read, not its markup.

An answer's content holds `[[tool:N]]` markers and ```` ```choices ```` blocks of JSON;
the user read cards in their place and a question with its options. The index and the
snippets take that text, so the JSON's keys (`label`, `value`) find nothing.
"""

from __future__ import annotations

import re

from ..protocol import TOOL_MARKER
from ..tools.choices import choices_as_text

__all__ = ["searchable_text", "snippet_of"]

_SNIPPET_CHARS = 160


def searchable_text(content: str) -> str | None:
    """What the index holds for a message whose `content` is not what the user read: tool
    markers out and each ```` ```choices ```` block as its question and options (its JSON
    keys, `label` or `value`, are no words of the conversation). None when `content` is
    read as it is: the index takes `content` itself (`messages.search_text` stays empty)."""
    if "[[tool:" not in content and "```choices" not in content:
        return None
    return TOOL_MARKER.sub(" ", choices_as_text(content))


def snippet_of(text_: str, terms: list[str]) -> str:
    """`text_` on one line as the user read it (tool markers out, a ```` ```choices ````
    block as its question and options), cut to the part around its first matching word."""
    flat = " ".join(TOOL_MARKER.sub(" ", choices_as_text(text_, inline=True)).split())
    lowered = flat.casefold()
    found = [m.start() for t in terms if (m := re.search(rf"(?<![^\W_]){re.escape(t)}", lowered))]
    start = max(0, min(found, default=0) - _SNIPPET_CHARS // 4)
    end = start + _SNIPPET_CHARS
    cut = flat[start:end]
    return ("…" if start else "") + cut + ("…" if end < len(flat) else "")
