"""The offline model's conversation titles: the subject, not the wording around it."""

from __future__ import annotations

import pytest

from horizon.offline.model import OfflineModel
from horizon.offline.titles import offline_title
from pagechat.chat.titles import title_request
from pagechat.events import TextDelta


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("Could you fill in a starting point for a stream on long COVID?", "Long COVID"),
        ("please summarise this report", "Summarise this report"),
        ("Find CRISPR papers", "Find CRISPR papers"),
        (
            "Hi! Can you tell me about tardigrade desiccation tolerance, please?",
            "Tardigrade desiccation tolerance",
        ),
        (
            "what does the evidence say regarding statins and dementia risk in older adults today",
            "Statins and dementia risk in older",
        ),
        ("?", None),
    ],
)
def test_the_title_names_the_subject(question: str, title: str | None) -> None:
    assert offline_title(question) == title


async def test_the_offline_model_answers_a_title_call_with_the_subject() -> None:
    request = title_request("Could you start a stream on antimicrobial resistance?", "Sure.")
    events = [e async for e in OfflineModel(delay=0).stream(request)]
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "Antimicrobial resistance"
