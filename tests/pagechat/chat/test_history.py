from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pagechat.chat import build_history
from pagechat.models import AssistantTurn, UserTurn
from pagechat.protocol import MessagePublic, ToolHistoryEntry

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _msg(role: str, content: str, **kw: Any) -> MessagePublic:
    return MessagePublic(id=content[:8] or "x", role=role, content=content, created_at=NOW, **kw)  # type: ignore[arg-type]


def test_newest_turns_are_kept_when_over_budget() -> None:
    messages = []
    for i in range(50):
        messages += [
            _msg("user", f"question {i:02d} " + "x" * 80),
            _msg("assistant", f"answer {i:02d} " + "y" * 80),
        ]
    history = build_history(messages, budget=1000)
    texts = [t.text for t in history if isinstance(t, UserTurn | AssistantTurn)]
    assert texts[-1].startswith("answer 49")
    assert all("question 00" not in t for t in texts)
    assert isinstance(history[0], UserTurn)
    assert sum(len(t) for t in texts) <= 1000


def test_tool_markers_become_short_notes_with_long_outputs_cut() -> None:
    entry = ToolHistoryEntry(
        tool_name="search_pubmed", input={"query": "CRISPR"}, output="z" * 5000
    )
    history = build_history(
        [
            _msg("user", "find"),
            _msg("assistant", "Searching.[[tool:0]]Found many.", tool_history=[entry]),
        ]
    )
    answer = history[-1]
    assert isinstance(answer, AssistantTurn)
    assert "[[tool:" not in answer.text
    assert "search_pubmed" in answer.text and "CRISPR" in answer.text
    assert len(answer.text) < 1200 and "more characters" in answer.text


def test_stopped_answers_are_marked_for_the_model() -> None:
    history = build_history(
        [_msg("user", "go"), _msg("assistant", "Half an answ", status="cancelled")]
    )
    assert isinstance(history[-1], AssistantTurn) and "stopped" in history[-1].text


def test_running_placeholders_and_empty_answers_are_skipped() -> None:
    history = build_history([_msg("user", "go"), _msg("assistant", "", status="running")])
    assert history == [UserTurn("go")]


def test_history_starts_with_a_user_turn() -> None:
    history = build_history(
        [_msg("assistant", "orphan"), _msg("user", "hi"), _msg("assistant", "hello")]
    )
    assert isinstance(history[0], UserTurn) and history[0].text == "hi"
