"""Stream adapters: a run's events told on one wire protocol.

A run's log holds typed events (`pagechat.events.RunEvent`), numbered. An adapter turns
each `(seq, event)` into the SSE frames its protocol sends (through `runs.log.sse_frame`,
the one encoder), plus the frames that open its stream; `server/sse.EventStream` is the
one writer that follows the log and sends them. pagechat's own stream is `NativeStream`;
AG-UI's is `pagechat.agui.AguiStream`. Another protocol is one more subclass: `render`
matches the union exhaustively (`assert_never`), so mypy names a kind it forgets.
"""

from __future__ import annotations

import abc
from typing import ClassVar

from .events import Error, RunEvent
from .runs.log import encode_event, sse_frame

__all__ = ["UNSENDABLE", "NativeStream", "StreamAdapter"]

UNSENDABLE = "The answer could not be sent on this stream; it may be in the conversation."
"""The message of the terminal error a stream ends with when its frames cannot be made."""


class StreamAdapter(abc.ABC):
    """How one response tells a run's events: its frames for each `(seq, event)`."""

    log_frames: ClassVar[bool] = False
    """The frames are the log's own, made once as each event was appended (`NativeStream`):
    the writer sends those bytes and `render` is not called."""

    def opening(self) -> bytes:
        """The frames that open the stream, before the run's first event."""
        return b""

    @abc.abstractmethod
    def render(self, seq: int, event: RunEvent) -> bytes:
        """The frames that tell `event`, number `seq` in the run's log (0: an event of
        this reader's own, such as a lost connection's error); `b""` for none."""

    def failed(self) -> bytes:
        """The frames that end the stream when its own frames cannot be made (an event
        that cannot be encoded): its protocol's terminal error, so no client waits for an
        end that never comes. Made of constants only: it cannot fail in turn."""
        return self.render(0, Error(message=UNSENDABLE, code="unsendable"))


class NativeStream(StreamAdapter):
    """pagechat's own stream: each event's wire JSON as one `data:` line, `id:` its number
    (DESIGN.md §3), so a client resumes with `Last-Event-ID`."""

    log_frames = True

    def render(self, seq: int, event: RunEvent) -> bytes:
        return sse_frame(encode_event(event), seq or None)
