import inspect

from sse_starlette import EventSourceResponse

from pagechat.server.sse import EventStream


def test_the_overridden_send_is_still_the_one_sse_starlette_calls_per_chunk() -> None:
    # EventStream replaces a private method; an sse-starlette upgrade that renames it
    # would silently bring the per-chunk cancel scope back.
    source = inspect.getsource(EventSourceResponse._stream_response)
    assert "self._send_with_timeout(" in source
    assert EventStream._send_with_timeout is not EventSourceResponse._send_with_timeout
