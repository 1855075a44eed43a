import asyncio

from pagechat.chat.coalesce import TextCoalescer


def _coalescer(window: float) -> tuple[TextCoalescer, list[str]]:
    shown: list[str] = []
    return TextCoalescer(shown.append, window=window), shown


async def test_the_first_delta_goes_out_at_once() -> None:
    deltas, shown = _coalescer(10)
    deltas.add("Hello")
    assert shown == ["Hello"]


async def test_deltas_within_the_window_go_out_together_when_it_ends() -> None:
    deltas, shown = _coalescer(0.02)
    for text in ("a", "b", "c"):
        deltas.add(text)
    assert shown == ["a"]
    # Timers fire in deadline order: by the end of this longer one the window has closed.
    await asyncio.sleep(0.05)
    assert shown == ["a", "bc"]


async def test_a_delta_after_a_quiet_window_is_not_delayed() -> None:
    deltas, shown = _coalescer(0.01)
    deltas.add("a")
    await asyncio.sleep(0.03)
    deltas.add("b")
    assert shown == ["a", "b"]


async def test_flush_sends_what_waits_and_nothing_comes_after() -> None:
    deltas, shown = _coalescer(0.02)
    deltas.add("a")
    deltas.add("b")
    deltas.flush()
    assert shown == ["a", "b"]
    await asyncio.sleep(0.05)
    assert shown == ["a", "b"]


async def test_a_zero_window_never_merges() -> None:
    deltas, shown = _coalescer(0)
    for text in ("a", "b", "c"):
        deltas.add(text)
    assert shown == ["a", "b", "c"]


async def test_empty_text_is_no_event() -> None:
    deltas, shown = _coalescer(0)
    deltas.add("")
    deltas.flush()
    assert shown == []
