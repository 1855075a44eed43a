"""Keeping API keys out of error messages, whatever form they leak in.

A provider's error may quote the key whole, in part (`sk-ant-api03-Ab...wXyZ`,
OpenAI's `sk-proj-****abcd`), base64-encoded (a Basic auth header echoed back),
or URL-encoded. `redact` removes every one of those for the keys it is given,
and any key-shaped token besides: a message that reaches a user, the log or the
database holds no credential, nor enough of one to recognise it.
"""

from __future__ import annotations

import base64
import functools
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

import re2

__all__ = [
    "REDACTED",
    "RedactingFilter",
    "RedactingFormatter",
    "install_log_redaction",
    "redact",
]

REDACTED = "[redacted]"

_RUN = 6
"""Any stretch of a key this long or longer is removed: a prefix and a suffix tell a key."""

# Key-shaped tokens of any provider (sk-..., sk-ant-..., sk-proj-...), masked or not,
# and bearer credentials.
_KEY_LIKE = re.compile(
    r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]*(?:[*•.…xX]{3,}[A-Za-z0-9_\-]*)?"
    r"|\bBearer\s+[A-Za-z0-9._~+/=\-]{8,}",
)


def _forms(secret: str) -> set[str]:
    raw = secret.encode()
    forms = {
        secret,
        quote(secret, safe=""),
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    }
    for prefix in ("", "user:", ":"):  # HTTP Basic echoes `user:key`
        forms.add(base64.b64encode((prefix + secret + ":").encode()).decode().rstrip("="))
        forms.add(base64.b64encode((prefix + secret).encode()).decode().rstrip("="))
    return {f for f in forms if len(f) >= _RUN}


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """`text` without the `secrets` (in every form above) and without key-shaped tokens."""
    known = tuple(s for s in secrets if s and len(s) >= _RUN)
    pattern = _gram_pattern(known)
    if pattern is not None:
        text = _cut(text, _shared_runs(text, pattern, _grams(known)))
    return _KEY_LIKE.sub(REDACTED, text)


@functools.lru_cache(maxsize=32)
def _grams(secrets: tuple[str, ...]) -> frozenset[str]:
    """Every `_RUN`-long stretch of every form of the secrets: made once per set of
    secrets, since the log filter redacts every line the server writes."""
    return frozenset(
        form[i : i + _RUN]
        for secret in secrets
        for form in _forms(secret)
        for i in range(len(form) - _RUN + 1)
    )


@functools.lru_cache(maxsize=32)
def _gram_pattern(secrets: tuple[str, ...]) -> Any:
    """Every gram as one RE2 alternation (None for no secrets): RE2 runs it as an automaton,
    one pass whatever the number of grams. The log filter redacts every line the server
    writes, a request line may be 16 KB of anyone's choosing, and a slice-and-look-up per
    position cost ~2.5 ms of the event loop for each such line, three times a record; RE2
    tells a line without a secret's stretch in ~0.05 ms."""
    grams = _grams(secrets)
    if not grams:
        return None
    return re2.compile("|".join(re.escape(g) for g in sorted(grams)), _RE2_OPTIONS)


_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.max_mem = 64 << 20  # a few thousand 6-character literals fit well within this


def _shared_runs(text: str, pattern: Any, grams: frozenset[str]) -> list[tuple[int, int]]:
    """Where `text` holds a stretch of at least `_RUN` characters of a secret.

    Nearly every line holds none, and RE2 says so in one pass; only a line that does is
    looked at position by position (overlapping stretches included)."""
    if pattern.search(text) is None:
        return []
    return [(i, i + _RUN) for i in range(len(text) - _RUN + 1) if text[i : i + _RUN] in grams]


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    spans.sort()
    merged = [spans[0]]
    for start, end in spans[1:]:
        if start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    out, at = [], 0
    for start, end in merged:
        out += [text[at:start], REDACTED]
        at = end
    out.append(text[at:])
    return "".join(out)


class RedactingFilter(logging.Filter):
    """Takes keys out of every log record a handler writes: its arguments and its traceback.

    Attached to the handlers of `pagechat serve`, so a key that reaches a log line by any
    path (an SDK's exception text, a library's debug line) is written as `[redacted]`.

    The record keeps its shape: each string argument is redacted where it stands, and
    `args` is never replaced, since a formatter may read them one by one (uvicorn's
    access formatter unpacks five). A key the arguments alone do not show (in a number's
    text, or across an argument's edge) is caught on the way out by `RedactingFormatter`.
    """

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        super().__init__()
        self._secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg, self._secrets)
        if isinstance(record.args, tuple):
            record.args = tuple(self._clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: self._clean(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self._secrets)
        return True

    def _clean(self, value: object) -> object:
        return redact(value, self._secrets) if isinstance(value, str) else value


class RedactingFormatter(logging.Formatter):
    """Another handler's formatter, whose every line is redacted as a whole once written.

    The last net under `RedactingFilter`: whatever the formatter makes of a record (a
    traceback, an argument's text, a line joined from several arguments) is redacted
    before the handler writes it, so no record is dropped and none holds a key.
    """

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str | None] = ()) -> None:
        super().__init__()
        self.inner = inner
        self._secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record), self._secrets)


def install_log_redaction(secrets: Iterable[str | None] = ()) -> None:
    """Redact every handler that writes the server's logs (the root logger's, uvicorn's,
    and Python's last-resort one), once each: a `RedactingFilter` on it, and its formatter
    wrapped in a `RedactingFormatter`."""
    secrets = list(secrets)
    redacting = RedactingFilter(secrets)
    handlers = [
        handler
        for name in ("", "uvicorn", "uvicorn.error", "uvicorn.access")
        for handler in logging.getLogger(name).handlers
    ]
    if logging.lastResort is not None:
        handlers.append(logging.lastResort)
    for handler in handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(redacting)
        if not isinstance(handler.formatter, RedactingFormatter):
            # A handler without a formatter uses logging's default one.
            inner = handler.formatter or logging.Formatter()
            handler.setFormatter(RedactingFormatter(inner, secrets))
