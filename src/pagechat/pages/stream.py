"""Cutting `MARKER: {json}` regions out of the model's text as it streams.

`ReplyStreamFilter` is fed the text deltas of one model call in order and
returns, at each step, the text that is safe to show. The same machine parses
a whole reply (`parse_reply` feeds it everything at once), so the streamed
text and the final message are the same string by construction.

Rules, for any split of the text into deltas:

* A marker counts only outside fenced code blocks and at a word boundary
  (`XSCHEMA_PROPOSAL:` is not `SCHEMA_PROPOSAL:`).
* After a marker come optional whitespace and one JSON object or array,
  either bare or in a ```` ```json ```` (or bare ```` ``` ````) block that starts
  right after the marker. The JSON is found by a balanced scan that knows
  strings and escapes.
* While the region can still become a payload it is withheld. It is released
  as plain text as soon as it cannot (a character no JSON has outside a string,
  mismatched brackets, nesting deeper than 100) or at `flush`; then only the
  marker itself is text and scanning goes on right after it.
* A JSON value still open when the call ends (an answer cut off by the output
  limit) is handed to the judge as it is, which may cut it out to the end
  (the parser shows an error card for it); rejected, it is released as above.
* A complete region is handed to the judge. Accepted, it is removed along with
  the spaces and tabs after it, and — when the marker began its line — the
  newlines after it too, so a payload on its own paragraph leaves no gap.
  Rejected, the whole region stays as text.
* Text that could still be the beginning of a marker waits (at most one
  character less than the longest marker); any other text is released at once.
* All output has `[[tool:N]]` neutralised (see `neutralize`).

`flush` ends a model call: everything held is decided and the state starts over.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .fences import Fence, closes_fence, fence_opener, starts_fence
from .neutralize import ToolMarkerGuard

__all__ = ["Judge", "ReplyStreamFilter", "check_markers"]

logger = logging.getLogger(__name__)

Judge = Callable[[str, str | None], bool]
"""`(marker, json_text)` → whether to cut the region out. `json_text` is None when
the marker was not followed by a JSON value (the call is then a report); at the end
of a call it may be a JSON value that never closed (not valid JSON)."""

_WS = " \t\r\n"
_BARE_JSON = frozenset(" \t\r\n,:0123456789-+.eEtruefalsn")
_STRING_STOP = re.compile(r'["\\]')
_MAX_DEPTH = 100
_MAX_FENCE_LINE = 24
_FENCE_HEAD = 6  # up to three spaces and three fence characters
_LINE_KEEP = 64
_FENCE_LINE = re.compile(r"`{3,}[ \t]*(?:json)?[ \t]*\r?", re.IGNORECASE)
_FENCE_LINE_START = re.compile(
    r"`{1,2}|`{3,}[ \t]*(?:j(?:s(?:o(?:n)?)?)?)?[ \t]*\r?", re.IGNORECASE
)

# Region phases.
_GAP, _OPEN_FENCE, _FENCE_GAP, _JSON, _CLOSE_GAP, _CLOSE_FENCE = range(6)
# `_scan_region` results that are not an end offset.
_PENDING, _ABORT, _UNCLOSED = 0, -1, -2


# A marker starting with these would be mistaken for whitespace or a code fence.
_BAD_MARKER_START = " \t\r\n`~"


def check_markers(markers: Iterable[str]) -> tuple[str, ...]:
    """The distinct markers, longest first; ValueError if one cannot be recognised
    in a reply (empty, starts with whitespace or a fence character, holds a line
    break) or is the beginning of another (the shorter could never be told apart
    while streaming)."""
    unique = sorted(set(markers), key=len, reverse=True)
    for marker in unique:
        if not marker or marker[0] in _BAD_MARKER_START or "\n" in marker:
            raise ValueError(f"invalid marker {marker!r}")
        clash = next((m for m in unique if m != marker and m.startswith(marker)), None)
        if clash is not None:
            raise ValueError(f"marker {marker!r} is the beginning of {clash!r}")
    return tuple(unique)


def _well_formed(marker: str, body: str | None) -> bool:
    if body is None:
        return False
    try:
        json.loads(body, strict=False)
    except (ValueError, RecursionError):
        return False
    return True


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


@dataclass(slots=True)
class _Region:
    """A marker at the start of the buffer and how far its JSON has been scanned."""

    marker: str
    at_line_start: bool
    pos: int
    phase: int = _GAP
    fenced: bool = False
    fence_start: int = 0
    json_start: int = 0
    json_end: int = 0
    closers: list[str] = field(default_factory=list)
    in_string: bool = False
    escaped: bool = False
    ticks: int = 0


class ReplyStreamFilter:
    """Withholds marker regions from the model's text deltas; see the module doc.

    `judge` decides whether a complete region is cut out; by default any
    well-formed JSON is. The markers must pass `check_markers`.
    """

    def __init__(self, markers: Sequence[str], *, judge: Judge | None = None) -> None:
        unique = check_markers(markers)
        self._markers = unique
        self._marker_re = re.compile("|".join(re.escape(m) for m in unique)) if unique else None
        self._prefixes = frozenset(m[:k] for m in unique for k in range(1, len(m)))
        self._longest = len(unique[0]) if unique else 0
        self._judge = judge or _well_formed
        self._guard = ToolMarkerGuard()
        # A delta with none of these characters can hold no marker, no beginning of one,
        # no line break and no tool marker: while nothing is held it is shown as it is.
        starts = "".join(sorted({m[0] for m in unique}))
        self._notable = re.compile(f"[{re.escape(starts)}\n`\\[]").search
        self._reset()

    @property
    def markers(self) -> tuple[str, ...]:
        """The payload markers it looks for, longest first (`check_markers`)."""
        return self._markers

    def feed(self, delta: str) -> str:
        """Take the next delta; return the text that can be shown now."""
        if (
            not self._buf
            and self._region is None
            and self._swallow is None
            and self._guard.idle
            and self._notable(delta) is None
        ):
            # The fast path of nearly every delta; `_put` without a line break.
            self._extend_line(delta)
            return delta
        self._buf += delta
        return self._guard.feed(self._process(final=False))

    def flush(self) -> str:
        """End of the model call: decide everything held and return the rest."""
        text = self._process(final=True)
        self._reset()
        return self._guard.feed(text) + self._guard.flush()

    def _reset(self) -> None:
        self._buf = ""  # raw text not yet shown nor dropped
        self._line = ""  # the current line of the output so far
        self._fence: Fence | None = None  # the open code block of the output
        self._region: _Region | None = None
        self._swallow: str | None = None  # whitespace still to drop after a cut

    def _process(self, *, final: bool) -> str:
        out: list[str] = []
        while True:
            region = self._region
            if region is None:
                if not self._scan_text(out, final=final):
                    break
                continue
            end = self._scan_region(region, final=final)
            if end == _PENDING:
                break
            self._region = None
            if end == _UNCLOSED:
                # The call ended inside the JSON: the judge may take the rest of the text.
                body = self._buf[region.json_start : region.json_end or len(self._buf)]
                if self._decide(region.marker, body):
                    self._buf = ""
                    continue
                end = _ABORT
            if end == _ABORT:
                self._decide(region.marker, None)
                self._put(out, region.marker)
                self._buf = self._buf[len(region.marker) :]
                continue
            text, self._buf = self._buf[:end], self._buf[end:]
            if self._decide(region.marker, text[region.json_start : region.json_end]):
                self._swallow = " \t\r\n" if region.at_line_start else " \t"
            else:
                self._put(out, text)
        return "".join(out)

    def _decide(self, marker: str, body: str | None) -> bool:
        try:
            return bool(self._judge(marker, body))
        except Exception:
            logger.warning("judging %s failed; kept as text", marker, exc_info=True)
            return False

    # --- plain text ------------------------------------------------------

    def _scan_text(self, out: list[str], *, final: bool) -> bool:
        """Show what is plain; True when a marker region now starts the buffer."""
        buf, n, i = self._buf, len(self._buf), 0
        while i < n:
            if self._swallow is not None:
                while i < n and buf[i] in self._swallow:
                    i += 1
                if i == n:
                    break
                self._swallow = None
            newline = buf.find("\n", i)
            end = n if newline < 0 else newline + 1
            if self._fence is None and self._marker_re is not None:
                pos, marker = self._find_marker(buf, i, end, partial=newline < 0 and not final)
                if pos >= 0:
                    self._put(out, buf[i:pos])
                    self._buf = buf[pos:]
                    if marker is None:  # might still become a marker: wait
                        return False
                    at_line_start = not self._line.strip()
                    self._region = _Region(marker, at_line_start, pos=len(marker))
                    return True
            self._put(out, buf[i:end])
            i = end
        self._buf = ""
        return False

    def _find_marker(
        self, buf: str, start: int, end: int, *, partial: bool
    ) -> tuple[int, str | None]:
        """The first marker in `buf[start:end]`, or (when `partial`) the start of a
        tail that may become one (marker None); (-1, None) when there is neither."""
        assert self._marker_re is not None
        found: tuple[int, str | None] = (-1, None)
        match = self._marker_re.search(buf, start, end)
        while match is not None:
            if self._counts_at(buf, start, match.start()):
                found = match.start(), match.group()
                break
            match = self._marker_re.search(buf, match.start() + 1, end)
        if partial:
            limit = end if found[0] < 0 else found[0]
            for pos in range(max(start, end - self._longest + 1), limit):
                if buf[pos:end] in self._prefixes and self._counts_at(buf, start, pos):
                    return pos, None
        return found

    def _counts_at(self, buf: str, start: int, pos: int) -> bool:
        """Whether a marker at `pos` would count: a word boundary, not in a fence opener line."""
        before = buf[pos - 1] if pos > start else self._line[-1:]
        if _is_word(buf[pos]) and _is_word(before):
            return False
        # An opener shows in a line's first six characters; copy no more.
        head = self._line[:_FENCE_HEAD]
        if len(head) < _FENCE_HEAD:
            head += buf[start : min(pos, start + _FENCE_HEAD - len(head))]
        return not starts_fence(head)

    def _put(self, out: list[str], text: str) -> None:
        """Show `text`, keeping track of lines and code fences."""
        if not text:
            return
        out.append(text)
        start = 0
        while (newline := text.find("\n", start)) >= 0:
            line, self._line = self._line + text[start:newline], ""
            if self._fence is None:
                self._fence = fence_opener(line)
            elif closes_fence(line, self._fence):
                self._fence = None
            start = newline + 1
        self._extend_line(text[start:])

    def _extend_line(self, text: str) -> None:
        """Add text without a line break to the current line, keeping what is asked of it.

        A line is asked for its first characters (a fence opener), its last one (a word
        boundary) and whether it is blank. Unless it may be a fence line, its middle is
        dropped once it grows long, leaving one visible character if the middle had any:
        a line with no break would otherwise be copied whole on every delta. It is cut
        back to about `2 * _LINE_KEEP` only when it passes twice that, so that a long
        line costs one short concatenation per delta and a cut every few dozen deltas
        (cutting on every delta was 4 % of a token's instructions, docs/performance.md).
        """
        line = self._line + text
        if len(line) > 4 * _LINE_KEEP and not starts_fence(line[:_FENCE_HEAD]):
            middle = line[_LINE_KEEP:-_LINE_KEEP]
            line = line[:_LINE_KEEP] + ("x" if middle.strip() else "") + line[-_LINE_KEEP:]
        self._line = line

    # --- marker regions --------------------------------------------------

    def _scan_region(self, r: _Region, *, final: bool) -> int:
        """Scan on from `r.pos`: the region's end offset, `_PENDING` or `_ABORT`."""
        buf, n, i = self._buf, len(self._buf), r.pos
        while i < n:
            c = buf[i]
            if r.phase in (_GAP, _FENCE_GAP):
                if c in _WS:
                    i += 1
                elif c in "{[":
                    r.phase, r.json_start = _JSON, i
                elif c == "`" and r.phase == _GAP:
                    r.phase, r.fenced, r.fence_start = _OPEN_FENCE, True, i
                else:
                    return _ABORT
            elif r.phase == _OPEN_FENCE:
                if c == "\n":
                    if not _FENCE_LINE.fullmatch(buf, r.fence_start, i):
                        return _ABORT
                    r.phase = _FENCE_GAP
                elif i - r.fence_start >= _MAX_FENCE_LINE or not _FENCE_LINE_START.fullmatch(
                    buf, r.fence_start, i + 1
                ):
                    return _ABORT
                i += 1
            elif r.phase == _JSON:
                if r.in_string:
                    i = self._skip_string(r, i)
                    continue
                if c == '"':
                    r.in_string = True
                elif c in "{[":
                    r.closers.append("}" if c == "{" else "]")
                    if len(r.closers) > _MAX_DEPTH:
                        return _ABORT
                elif c in "}]":
                    if not r.closers or r.closers.pop() != c:
                        return _ABORT
                    if not r.closers:
                        r.json_end = i + 1
                        if not r.fenced:
                            return i + 1
                        r.phase = _CLOSE_GAP
                elif c not in _BARE_JSON:
                    return _ABORT
                i += 1
            elif r.phase == _CLOSE_GAP:
                if c in _WS:
                    i += 1
                elif c == "`":
                    r.phase = _CLOSE_FENCE
                else:
                    return _ABORT
            else:  # _CLOSE_FENCE
                if c != "`":
                    return _ABORT
                r.ticks += 1
                i += 1
                if r.ticks == 3:
                    return i
        r.pos = i
        if not final:
            return _PENDING
        return _UNCLOSED if r.phase in (_JSON, _CLOSE_GAP, _CLOSE_FENCE) else _ABORT

    def _skip_string(self, r: _Region, i: int) -> int:
        """Advance through a JSON string from `i`; the next offset to scan."""
        buf = self._buf
        if r.escaped:
            r.escaped = False
            return i + 1
        stop = _STRING_STOP.search(buf, i)
        if stop is None:
            return len(buf)
        if stop.group() == "\\":
            r.escaped = True
        else:
            r.in_string = False
        return stop.end()
