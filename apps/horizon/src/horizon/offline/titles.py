"""The offline model's conversation titles: the subject of the first question.

A request names its subject after "on", "about" or "regarding" ("a stream on long
COVID" is about long COVID); otherwise the question itself is the title, without the
politeness around it ("could you", "please") and its question mark.
"""

from __future__ import annotations

import re

__all__ = ["offline_title"]

_WORDS = 6
_OPENERS = re.compile(
    r"^(?:(?:hi|hello|hey|please|ok(?:ay)?|so|could you|can you|would you|will you|"
    r"i(?:'d| would) like(?: you)? to|i want(?: you)? to|help me(?: to)?|let'?s)\b[\s,]*)+",
    re.IGNORECASE,
)
_SUBJECT = re.compile(r"\b(?:on|about|regarding|concerning)\s+(?P<subject>[^?.!,;]+)", re.I)
_TRAILING = re.compile(r"[\s,]*(?:please|thanks|thank you)?[\s?.!]*$", re.IGNORECASE)


def offline_title(question: str) -> str | None:
    """A short title for a conversation that starts with `question`; None for no words."""
    text = " ".join(question.split())
    subjects = list(_SUBJECT.finditer(text))
    if subjects:
        text = subjects[-1].group("subject")
    text = _TRAILING.sub("", _OPENERS.sub("", text)).strip()
    words = text.split()[:_WORDS]
    if not words:
        return None
    title = " ".join(words)
    return title[0].upper() + title[1:]
