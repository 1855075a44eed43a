from __future__ import annotations

import pytest

from pagechat.pages.fences import Fence, closes_fence, fence_opener, starts_fence


@pytest.mark.parametrize(
    ("line", "fence"),
    [
        ("```", Fence("`", 3, "")),
        ("   ````python x", Fence("`", 4, "python x")),
        ("~~~choices", Fence("~", 3, "choices")),
        ("    ```", None),  # four spaces: an indented code line
        ("``", None),
        ("```a`b", None),  # a backtick in the info string: inline code
    ],
)
def test_fence_openers_follow_commonmark(line: str, fence: Fence | None) -> None:
    assert fence_opener(line) == fence


def test_a_fence_closes_with_at_least_as_many_of_the_same_characters() -> None:
    fence = Fence("`", 4, "")
    assert closes_fence("````", fence) and closes_fence("  ````` \r", fence)
    assert not closes_fence("```", fence)
    assert not closes_fence("~~~~", fence)
    assert not closes_fence("```` text", fence)


def test_a_line_is_known_to_open_a_fence_from_its_third_backtick() -> None:
    assert not starts_fence("``")
    assert starts_fence("```")
    assert not starts_fence("a ```")
