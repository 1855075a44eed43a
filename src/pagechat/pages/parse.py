"""Reading the model's reply: payloads, suggested values and actions.

Only the model's own text goes in here — never tool output, never the user's
message — so marker text anywhere else can never become a payload.

`ReplyParser` is the streaming form: feed it the text deltas of each model call
(`flush` at each call's end) and show what it returns; `result()` then holds
what was parsed. `parse_reply` does the same for a whole reply at once, so the
streamed text and the parsed message are the same string. What a region must
look like, and what happens to the whitespace around it, is described in
`pagechat.pages.stream`.

A payload whose data does not match its schema is repaired where the meaning is
unambiguous (`pagechat.tools.repair`: "3" for 3, a field the schema forbids, a
missing field with a default). One that still does not match, or whose JSON is
malformed or was cut off at the end of the model's call, is cut out all the same
and becomes a `payload_error` card in its place among the payloads ("couldn't
show this proposal", the details folded away): raw JSON never reaches the answer.
A marker followed by no JSON at all is only a mention and stays text.
A SUGGESTED_VALUES / SUGGESTED_ACTIONS block is always cut out; one that is not a
JSON array is dropped with a warning, and so are items in it that are malformed,
or actions the page does not have (with that handler).
Nothing here raises because of what the model wrote.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from ..protocol import CustomPayload, SuggestedAction, SuggestedValue
from ..tools.repair import check_payload_data, payload_error
from .choices import find_choice_blocks
from .config import (
    RESERVED_MARKERS,
    SUGGESTED_ACTIONS_MARKER,
    SUGGESTED_VALUES_MARKER,
    PageConfig,
    PayloadConfig,
)
from .registry import get_page
from .stream import ReplyStreamFilter
from .turn import TurnSetup

__all__ = ["PageRef", "ParsedReply", "ReplyParser", "parse_reply"]

logger = logging.getLogger(__name__)

PageRef = TurnSetup | PageConfig | str | None
"""A turn's setup, a page config, or a page name (None or unknown: the default page)."""


@dataclass(frozen=True)
class ParsedReply:
    """The model's reply with its payloads taken out.

    `message` is the text the user saw, `[[tool:N]]` written by the model
    neutralised. `suggested_values` / `suggested_actions` are None when the
    reply offered none that were valid.
    """

    message: str
    payloads: list[CustomPayload] = field(default_factory=list)
    suggested_values: list[SuggestedValue] | None = None
    suggested_actions: list[SuggestedAction] | None = None
    warnings: list[str] = field(default_factory=list)


class ReplyParser:
    """Parses the model's reply while it streams; see the module doc.

    With a `TurnSetup`, its page, tab and payloads are used and `active_tab` is
    ignored; otherwise the payloads offered on `active_tab` are parsed.
    """

    def __init__(self, page: PageRef = None, active_tab: str | None = None) -> None:
        if isinstance(page, TurnSetup):
            self._page, payloads = page.page, list(page.payloads)
        else:
            self._page = page if isinstance(page, PageConfig) else get_page(page)
            payloads = list(self._page.payloads_for(active_tab))
        self._by_marker: dict[str, PayloadConfig] = {p.parse_marker: p for p in payloads}
        self._filter = ReplyStreamFilter([*self._by_marker, *RESERVED_MARKERS], judge=self._judge)
        self._shown: list[str] = []
        self._payloads: list[CustomPayload] = []
        self._values: list[SuggestedValue] = []
        self._actions: list[SuggestedAction] = []
        self._warnings: list[str] = []
        self._marks = (0, 0, 0, 0)
        self.fresh = False
        """Something was taken out since the last `take_new` (read on every delta: a flag)."""

    def feed(self, delta: str) -> str:
        """The next text delta of the model; returns the text to show now."""
        return self._show(self._filter.feed(delta))

    def flush(self) -> str:
        """The model call ended; returns the rest of its text to show."""
        return self._show(self._filter.flush())

    def result(self) -> ParsedReply:
        """What was parsed so far; `message` is everything shown, over all calls."""
        message = "".join(self._shown)
        warnings = list(self._warnings)
        for block in find_choice_blocks(message):
            if not block.valid:
                warnings.append(f"a choices block is not valid ({block.error}); shown as code")
        return ParsedReply(
            message=message,
            payloads=list(self._payloads),
            suggested_values=list(self._values) or None,
            suggested_actions=list(self._actions) or None,
            warnings=warnings,
        )

    def take_new(self) -> ParsedReply:
        """What was taken out since the last call (or the restored start): shown as it
        comes (`events.ReplyParts`), so the run's log holds it."""
        p, v, a, w = self._marks
        new = ParsedReply(
            message="",
            payloads=self._payloads[p:],
            suggested_values=self._values[v:] or None,
            suggested_actions=self._actions[a:] or None,
            warnings=self._warnings[w:],
        )
        self._mark()
        return new

    def _mark(self) -> None:
        self._marks = (
            len(self._payloads),
            len(self._values),
            len(self._actions),
            len(self._warnings),
        )
        self.fresh = False

    def _show(self, text: str) -> str:
        if text:
            self._shown.append(text)
        return text

    def _warn(self, message: str) -> None:
        logger.warning("model reply: %s", message)
        self._warnings.append(message)

    def restore(self, earlier: ParsedReply) -> None:
        """Go on from what was parsed before (a turn resumed after an approval): its
        payloads, chips, actions and warnings come first in `result()`."""
        self._payloads[:0] = earlier.payloads
        self._values[:0] = earlier.suggested_values or []
        self._actions[:0] = earlier.suggested_actions or []
        self._warnings[:0] = earlier.warnings
        self._mark()

    def _judge(self, marker: str, body: str | None) -> bool:
        self.fresh = True
        if body is None:
            self._warn(f"{marker} is not followed by a JSON value; kept as text")
            return False
        payload = self._by_marker.get(marker)
        try:
            data = json.loads(body, strict=False)
        except (ValueError, RecursionError):
            if payload is not None:
                self._refuse(payload, "was cut off or is not valid JSON", "Malformed JSON.", body)
            else:
                self._warn(f"{marker} is followed by malformed JSON; dropped")
            return True
        if marker == SUGGESTED_VALUES_MARKER:
            return self._take_values(data)
        if marker == SUGGESTED_ACTIONS_MARKER:
            return self._take_actions(data)
        assert payload is not None
        return self._take_payload(payload, data)

    def _refuse(self, payload: PayloadConfig, why: str, problem: str, written: Any) -> None:
        # Logged, not added to `warnings`: the error card already tells the user.
        logger.warning("model reply: %s %s; shown as an error card", payload.parse_marker, why)
        reason = f"The {payload.type.replace('_', ' ')} could not be shown: it {why}."
        self._payloads.append(payload_error(payload.type, reason, problem, written))

    def _take_payload(self, payload: PayloadConfig, data: Any) -> bool:
        card = check_payload_data(payload.type, payload.schema, data)
        if card.type != payload.type:
            logger.warning("model reply: %s does not match its schema", payload.parse_marker)
        elif card.data != data:
            logger.info("model reply: %s repaired to match its schema", payload.parse_marker)
        self._payloads.append(card)
        return True

    def _take_values(self, data: Any) -> bool:
        if not isinstance(data, list):
            self._warn(f"{SUGGESTED_VALUES_MARKER} is not a JSON array; dropped")
            return True
        for item in data:
            # A bare string is both the chip's label and what it sends.
            raw = {"label": item, "value": item} if isinstance(item, str) else item
            try:
                self._values.append(SuggestedValue.model_validate(raw))
            except ValidationError:
                self._warn(f"suggested value {_short(item)} is malformed; dropped")
        return True

    def _take_actions(self, data: Any) -> bool:
        if not isinstance(data, list):
            self._warn(f"{SUGGESTED_ACTIONS_MARKER} is not a JSON array; dropped")
            return True
        for item in data:
            action = self._action(item)
            if action is not None:
                self._actions.append(action)
        return True

    def _action(self, item: Any) -> SuggestedAction | None:
        if isinstance(item, dict) and "handler" not in item:
            name = item.get("action")
            if isinstance(name, str) and self._page.client_action(name) is not None:
                item = {**item, "handler": "client"}
            elif isinstance(name, str) and self._page.server_action(name) is not None:
                item = {**item, "handler": "server"}
        try:
            action = SuggestedAction.model_validate(item)
        except ValidationError:
            self._warn(f"suggested action {_short(item)} is malformed; dropped")
            return None
        known = (
            self._page.client_action(action.action)
            if action.handler == "client"
            else self._page.server_action(action.action)
        )
        if known is None:
            self._warn(
                f"suggested action {action.action!r} is not a {action.handler} action "
                "of this page; dropped"
            )
            return None
        return action


def parse_reply(text: str, page: PageRef = None, active_tab: str | None = None) -> ParsedReply:
    """Parse one model call's whole text (the model's own text only)."""
    parser = ReplyParser(page, active_tab)
    parser.feed(text)
    parser.flush()
    return parser.result()


def _short(value: Any) -> str:
    return _clip(json.dumps(value, ensure_ascii=False, default=str), 80)


def _clip(text: str, size: int = 200) -> str:
    # Validation messages quote the offending value, which may be a whole payload.
    return text if len(text) <= size else text[:size] + "…"
