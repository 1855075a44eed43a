"""A fake upstream's answer that continues a numbered answer from where it was left.

`words N` in the question asks for `w0 w1 ... w(N-1) `. Whatever the model has already
written (an assistant prefill after a takeover or Continue, or the text before a tool
call) is read back, and the answer goes on from the next number, so a test can check
that the stored answer holds every word exactly once, in order. `tool NAME` in the
question: the first step writes five words and calls NAME; after its result the words go
on, prefixed by `UNKNOWN-SEEN ` when the result said the outcome is unknown. `think` in
the question, with thinking on in the request: a fresh answer first streams `THOUGHT`
(a thinking block), slowly enough that a test can kill its worker meanwhile.

Each reply reports `INPUT_TOKENS` in and one output token per item it streams (a word,
a tool call), so a test can sum what an answer's calls used.
"""

from __future__ import annotations

import re
from typing import Any

from tests.fakes.anthropic_server import Response, Thinking, ToolUse, reply

__all__ = ["INPUT_TOKENS", "THOUGHT", "numbered_answer", "words"]

PACE = 25.0  # tokens per second
INPUT_TOKENS = 25
THOUGHT = "".join(f"t{i} " for i in range(40))
"""The reasoning a `think` question's fresh answer streams first (40 pieces)."""


def words(count: int, start: int = 0) -> str:
    """`w<start> ... w<count-1> `: the answer (or its part) a test expects."""
    return "".join(f"w{i} " for i in range(start, count))


def _texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    return [str(b.get("text") or b.get("content") or "") for b in content or []]


def numbered_answer(body: dict[str, Any], *, pace: float = PACE) -> Response:
    """The responder: see the module's docstring."""
    messages: list[dict[str, Any]] = body["messages"]
    # This turn's question: the last one asking for words (earlier turns asked their own;
    # regression: a conversation's second answer streamed the first one's 400 words).
    asking = [
        i
        for i, m in enumerate(messages)
        if m["role"] == "user" and any(re.search(r"words \d+", t) for t in _texts(m))
    ]
    at = asking[-1] if asking else 0
    question = next((t for t in _texts(messages[at]) if "words" in t), "") if asking else ""
    match = re.search(r"words (\d+)", question)
    count = int(match.group(1)) if match else 10
    tool = re.search(r"tool (\w+)", question)
    # What this turn wrote so far (a prefill, or the text before a tool call).
    written = " ".join(t for m in messages[at + 1 :] if m["role"] == "assistant" for t in _texts(m))
    numbers = [int(n) for n in re.findall(r"\bw(\d+)\b", written)]
    after = numbers[-1] + 1 if numbers else 0
    last = messages[-1]
    results = [b for b in last.get("content") or [] if isinstance(b, dict)]
    told_unknown = any(
        "outcome is unknown" in str(b.get("content"))
        for b in results
        if b.get("type") == "tool_result"
    )
    asked = last["role"] == "user" and not any(b.get("type") == "tool_result" for b in results)
    if tool and not numbers and asked:
        use = ToolUse(
            tool.group(1), {"title": "x"} if tool.group(1) == "write_note" else {"topic": "x"}
        )
        first = [f"w{i} " for i in range(min(5, count))]
        return _reply([*first, use], pace)
    items = [f"w{i} " for i in range(after, count)]
    if last["role"] == "assistant" and items:
        # A prefill ends without its space: the model goes on with one.
        items[0] = " " + items[0]
    if told_unknown:
        items.insert(0, "UNKNOWN-SEEN ")
    if "think" in question and body.get("thinking") and not numbers:
        items.insert(0, Thinking(THOUGHT, fragments=40))
    return _reply(items or [" "], pace)


def _reply(items: list[Any], pace: float) -> Response:
    return reply(
        *items, input_tokens=INPUT_TOKENS, output_tokens=len(items), tokens_per_second=pace
    )
