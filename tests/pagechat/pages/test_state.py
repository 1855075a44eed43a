from __future__ import annotations

from typing import Any

import pytest

from pagechat.pages import as_dict, as_id, as_list, as_number, first


@pytest.mark.parametrize(
    ("value", "expected"),
    [(7, 7), ("12", 12), (" 12 ", 12), (2**63 - 1, 2**63 - 1)],
)
def test_an_id_is_read_from_a_number_or_digits(value: Any, expected: int) -> None:
    assert as_id(value) == expected


@pytest.mark.parametrize(
    "value", [0, -3, 2**63, "1" * 20, "12a", "", True, 1.0, None, [1], {"id": 1}]
)
def test_no_row_can_have_an_odd_id(value: Any) -> None:
    assert as_id(value) is None


def test_a_container_of_the_wrong_kind_reads_as_empty() -> None:
    assert as_dict({"a": 1}) == {"a": 1}
    assert as_dict(["a"]) == {} and as_dict(None) == {} and as_dict("a") == {}
    assert as_list(("a", "b")) == ["a", "b"]
    assert as_list({"a": 1}) == [] and as_list("ab") == [] and as_list(None) == []


def test_a_copy_is_read_so_the_state_is_left_as_sent() -> None:
    state = {"a": 1}
    as_dict(state)["b"] = 2
    assert state == {"a": 1}


@pytest.mark.parametrize(("value", "expected"), [(3, 3.0), (0.5, 0.5), ("2.5", 2.5)])
def test_a_number_is_read_from_a_number_or_its_text(value: Any, expected: float) -> None:
    assert as_number(value) == expected


@pytest.mark.parametrize("value", [True, "high", float("nan"), "nan", None, [1]])
def test_an_odd_number_reads_as_none(value: Any) -> None:
    assert as_number(value) is None


def test_the_first_present_key_wins_and_none_counts_as_absent() -> None:
    state = {"stream": None, "draft": {"name": "A"}, "current_schema": {"name": "B"}}
    assert first(state, "stream", "draft", "current_schema") == {"name": "A"}
    assert first(state, "missing") is None
