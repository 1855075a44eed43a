"""Sources: numbered per answer, listed for the model, only http(s) links."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pagechat.tools import Source, ToolResult
from pagechat.tools.sources import SourceNumbers, answer_sources, with_sources


def _source(id: str, **fields: str) -> Source:
    return Source(id=id, title=f"Title {id}", **fields)


def test_sources_are_numbered_in_the_order_first_returned_and_keep_their_number() -> None:
    numbers = SourceNumbers()

    first = numbers.number([_source("a"), _source("b"), _source("a")])
    second = numbers.number([_source("c"), _source("b")])

    assert [(s.id, s.number) for s in first] == [("a", 1), ("b", 2)]
    assert [(s.id, s.number) for s in second] == [("c", 3), ("b", 2)]
    assert [(s.id, s.number) for s in answer_sources([first, second])] == [
        ("a", 1),
        ("b", 2),
        ("c", 3),
    ]


def test_an_answer_that_goes_on_numbers_on_from_its_earlier_sources() -> None:
    earlier = SourceNumbers().number([_source("a"), _source("b")])

    later = SourceNumbers(earlier).number([_source("b"), _source("z")])

    assert [(s.id, s.number) for s in later] == [("b", 2), ("z", 3)]


def test_the_model_reads_each_source_with_its_number() -> None:
    (source,) = SourceNumbers().number(
        [_source("7", url="https://example.org/7", detail="Cell, 2020", snippet="A\nfinding.")]
    )

    text = with_sources("Found one.", [source])

    assert text == (
        "Found one.\n\nSources (cite a statement that uses one as [n], its number here):\n"
        "[1] Title 7. Cell, 2020. https://example.org/7\n    A finding."
    )
    assert with_sources("Found none.", []) == "Found none."


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "data:text/html,x",
        "ftp://example.org/x",
        "//example.org",
        "https:///x",
    ],
)
def test_only_an_http_url_is_a_source_link(url: str) -> None:
    with pytest.raises(ValidationError):
        Source(id="1", title="t", url=url)


def test_a_tool_result_carries_its_sources() -> None:
    result = ToolResult("text", sources=[_source("a", url="http://example.org/a")])

    assert result.sources == (_source("a", url="http://example.org/a"),)
    assert ToolResult("text").sources == ()
