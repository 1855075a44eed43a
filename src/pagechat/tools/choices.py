"""`present_choices`: the built-in tool that asks the user a multiple-choice question.

Its result is the answer's end (`ToolConfig.result_is_answer`): the server puts the
```` ```choices ```` block into the answer itself, with no tool card, and ends the turn
without calling the model again (issue 17.5: no extra card, no extra model iteration;
the specs' first design, choices-design.md decision 2, had the model copy the block in
one more call). The call and its result stay in the stored answer's tool history, so
the next turn's history holds them in the provider's native tool-use form, and the
user's pick is simply their next message (decision 4).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .types import ToolConfig, ToolContext, ToolResult

__all__ = ["PRESENT_CHOICES", "choices_as_text", "choices_block"]

_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "minLength": 1, "description": "The question to display"},
        "options": {
            "type": "array",
            "minItems": 2,
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {
                    "label": {"type": "string", "minLength": 1, "description": "Button text"},
                    "value": {
                        "type": "string",
                        "minLength": 1,
                        "description": "Sent back when chosen",
                    },
                },
                "required": ["label", "value"],
            },
        },
        "context": {"type": "string", "description": "Optional text shown before the choices"},
    },
    "required": ["question", "options"],
}


def choices_block(question: str, options: list[dict[str, str]]) -> str:
    """The fenced block the UI renders as buttons."""
    body = json.dumps(
        {
            "question": question,
            "options": [{"label": o["label"], "value": o["value"]} for o in options],
        },
        ensure_ascii=False,
    )
    return f"```choices\n{body}\n```"


# A ```choices block as `choices_block` writes it (any fence of three or more backticks or
# tildes, closed by the same): where people read text (search snippets), not buttons.
_BLOCK = re.compile(r"^(`{3,}|~{3,})[ \t]*choices\b[^\n]*\n(.*?)\n\1[ \t]*$", re.M | re.S)


def choices_as_text(text: str, *, inline: bool = False) -> str:
    """`text` with each valid ```` ```choices ```` block as what the user saw: its question
    and its options' labels, one per line ("- label"), or on the question's line
    (`inline`: "question label · label"). A block that is not valid stays as it is."""

    def plain(match: re.Match[str]) -> str:
        try:
            data: Any = json.loads(match.group(2), strict=False)
        except (ValueError, RecursionError):
            return match.group(0)
        question = data.get("question") if isinstance(data, dict) else None
        options = data.get("options") if isinstance(data, dict) else None
        if not isinstance(question, str) or not isinstance(options, list):
            return match.group(0)
        labels = [
            o["label"] for o in options if isinstance(o, dict) and isinstance(o.get("label"), str)
        ]
        if inline:
            return " ".join([question.strip(), " · ".join(labels)])
        return "\n".join([question.strip(), *(f"- {label}" for label in labels)])

    return _BLOCK.sub(plain, text)


def _present_choices(params: dict[str, Any], context: ToolContext) -> ToolResult:
    block = choices_block(params["question"], params["options"])
    lead = f"{params['context']}\n\n" if params.get("context") else ""
    return ToolResult(f"{lead}{block}")


PRESENT_CHOICES = ToolConfig(
    name="present_choices",
    description=(
        "Ask the user a multiple-choice question (2-4 options) shown as clickable buttons. "
        "Use it when the next step depends on a decision only the user can make. The buttons "
        "end your answer: write what should come before them first; the user's pick comes "
        "back as their next message."
    ),
    input_schema=_SCHEMA,
    executor=_present_choices,
    timeout=5.0,
    result_is_answer=True,
)
