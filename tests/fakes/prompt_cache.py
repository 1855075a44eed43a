"""The Messages API's prompt cache, as far as a client can tell it apart from the real one.

The API reads a request as one sequence: its tools, then its system blocks, then each
message's content blocks. A block with `cache_control` is a breakpoint: the prefix up to
and including it is written to the cache, and a later request whose prefix up to one of
its own breakpoints (or a block up to `LOOKBACK` before one) is byte-for-byte a written
one reads those tokens from the cache.
`usage` splits a reply's scripted prompt size the way the API would:
`cache_read_input_tokens`, `cache_creation_input_tokens`, and `input_tokens` for the
rest. The cached parts are estimated at four characters a token (and never more than the
prompt); the minimum cacheable length is not modelled.
"""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

__all__ = ["LOOKBACK", "MAX_BREAKPOINTS", "PromptCache", "breakpoint_problem"]

LOOKBACK = 20
"""How many blocks before a breakpoint the API looks for a prefix it has cached."""

MAX_BREAKPOINTS = 4
"""The API refuses a request with more blocks marked `cache_control` than this."""


def _segments(body: dict[str, Any]) -> list[tuple[str, bool]]:
    """Each block of the request in the order the API caches them: its JSON without its
    `cache_control`, and whether it is a breakpoint."""
    blocks: list[Any] = list(body.get("tools") or [])
    system = body.get("system")
    if isinstance(system, str):
        blocks.append({"type": "text", "text": system})
    elif isinstance(system, list):
        blocks.extend(system)
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        blocks.extend({"role": message.get("role"), **b} for b in content or [])
    out = []
    for block in blocks:
        marked = isinstance(block, dict) and "cache_control" in block
        plain = {k: v for k, v in block.items() if k != "cache_control"} if marked else block
        out.append((json.dumps(plain, sort_keys=True), marked))
    return out


def breakpoint_problem(body: dict[str, Any]) -> str | None:
    """The API's complaint about the request's breakpoints, or None."""
    marked = [s for s, bp in _segments(body) if bp]
    if len(marked) > MAX_BREAKPOINTS:
        return (
            f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. "
            f"Found {len(marked)}."
        )
    for block in _blocks_with_breakpoints(body):
        if block.get("cache_control") != {"type": "ephemeral"}:
            return "cache_control: Input should be {'type': 'ephemeral'}"
        if block.get("type") == "text" and not block.get("text"):
            return "cache_control cannot be set for empty text blocks"
    return None


def _blocks_with_breakpoints(body: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = [*(body.get("tools") or [])]
    if isinstance(body.get("system"), list):
        blocks += body["system"]
    for message in body.get("messages") or []:
        if isinstance(message.get("content"), list):
            blocks += message["content"]
    return [b for b in blocks if isinstance(b, dict) and "cache_control" in b]


def _tokens(chars: int) -> int:
    return max(1, chars // 4) if chars else 0


class PromptCache:
    """The prefixes written so far, shared by every request to one fake server."""

    def __init__(self) -> None:
        self._written: set[str] = set()
        self._lock = threading.Lock()

    def usage(self, body: dict[str, Any], prompt_tokens: int) -> dict[str, int] | None:
        """How the request's `prompt_tokens` split into read, written and the rest; None
        when it has no breakpoint (nothing is cached)."""
        segments = _segments(body)
        if not any(bp for _, bp in segments):
            return None
        digest = hashlib.sha256()
        chars = 0
        ends: list[tuple[str, int]] = []  # (digest, chars) of the prefix ending at each block
        for text, _ in segments:
            digest.update(text.encode())
            chars += len(text)
            ends.append((digest.hexdigest(), chars))
        marks = [i for i, (_, marked) in enumerate(segments) if marked]
        # A breakpoint also finds a prefix ending up to LOOKBACK blocks before it.
        looked = {i for b in marks for i in range(max(0, b - LOOKBACK), b + 1)}
        with self._lock:
            read = max(
                (_tokens(ends[i][1]) for i in looked if ends[i][0] in self._written), default=0
            )
            last_key, last_chars = ends[marks[-1]]
            written = 0 if last_key in self._written else _tokens(last_chars) - read
            self._written.update(ends[i][0] for i in marks)
        read = min(read, prompt_tokens)
        written = min(written, prompt_tokens - read)
        return {
            "input_tokens": prompt_tokens - read - written,
            "cache_read_input_tokens": read,
            "cache_creation_input_tokens": written,
        }
