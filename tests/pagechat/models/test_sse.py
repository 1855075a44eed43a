import json
from collections.abc import AsyncIterator, Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagechat.models import _sse
from pagechat.models._sse import event_json, sse_data


async def _chunks(parts: Iterable[bytes]) -> AsyncIterator[bytes]:
    for part in parts:
        yield part


async def _data(*parts: bytes) -> list[bytes]:
    return [d async for d in sse_data(_chunks(parts))]


async def test_each_event_yields_its_data() -> None:
    body = b'event: a\ndata: {"x":1}\n\nevent: b\ndata: {"x":2}\n\n'
    assert await _data(body) == [b'{"x":1}', b'{"x":2}']


async def test_an_event_split_anywhere_between_chunks_comes_whole() -> None:
    body = b'event: a\ndata: {"text":"hello"}\n\ndata: two\n\n'
    for cut in range(1, len(body)):
        assert await _data(body[:cut], body[cut:]) == [b'{"text":"hello"}', b"two"], cut


async def test_crlf_and_cr_line_ends_even_split_between_chunks() -> None:
    assert await _data(b"data: one\r\n\r\ndata: two\r\r") == [b"one", b"two"]
    assert await _data(b"data: one\r", b"\n\r\n") == [b"one"]
    assert await _data(b"data: one\r\n\r", b"\n") == [b"one"]


async def test_multi_line_data_is_joined_with_newlines() -> None:
    assert await _data(b"data: first\ndata:second\ndata\n\n") == [b"first\nsecond\n"]


async def test_comments_and_events_without_data_are_skipped() -> None:
    assert await _data(b": ping\n\nevent: ping\n\nid: 3\ndata: x\n\n") == [b"x"]


async def test_an_unterminated_last_event_is_dropped() -> None:
    assert await _data(b"data: done\n\ndata: cut") == [b"done"]


async def test_only_one_space_after_the_colon_is_removed() -> None:
    assert await _data(b"data:  two spaces\n\n") == [b" two spaces"]


_LINES = st.sampled_from(
    [
        b"data: x",
        b"data:y",
        b"data",
        b"data:  z",
        b"event: data",
        b"event: a",
        b"id: 3",
        b": comment",
        b"database: no",
        b"xdata: no",
        b'data: {"t":"data: q"}',
        b"",
    ]
)


@given(st.lists(_LINES, min_size=1, max_size=6))
def test_the_one_data_line_shortcut_reads_what_the_line_by_line_reading_does(
    lines: list[bytes],
) -> None:
    block = b"\n".join(lines)
    assert _sse._data(block) == _sse._data_lines(block)


def test_event_json_reads_what_orjson_refuses_as_the_standard_library_does() -> None:
    assert event_json(b'{"text":"a\\ud800b","n":1}') == {"text": "a\ud800b", "n": 1}


def test_event_json_raises_the_standard_decode_error_for_what_is_not_json() -> None:
    with pytest.raises(json.JSONDecodeError):
        event_json(b'{"text": "cut')
