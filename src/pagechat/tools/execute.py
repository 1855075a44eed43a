"""Running one tool call: validate, execute, stream progress, bound by a timeout.

Whatever goes wrong inside a tool — invalid input, an exception, a timeout —
ends as an `is_error` `ToolResult` the model can read and react to. Only
cancellation (the user pressed Stop) propagates.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import logging
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

from ..payloads import Payload
from .chart import ChartSpecError, checked_payload
from .function import model_error
from .repair import check_payload_data, payload_error, schema_error
from .types import ToolConfig, ToolContext, ToolProgress, ToolResult

__all__ = ["execute_tool", "schema_error", "validation_error"]

logger = logging.getLogger(__name__)

_DONE = object()


def validation_error(tool: ToolConfig, params: dict[str, Any]) -> str | None:
    """Why `params` is not valid input for the tool, or None.

    `input_schema` is checked first: it is what the model was shown, and stricter than
    pydantic's lax mode. A tool with an `input_model` has it validate too, and when it
    refuses, its message is the one given, as it names every bad field, not the first.
    """
    problem = schema_error(tool.input_schema, params)
    if tool.input_model is None:
        return problem
    return model_error(tool.input_model, params) or problem


def _card(tool: ToolConfig, payload: Any) -> dict[str, Any] | None:
    """A tool's payload as its card: checked against `payload_schema` (repaired where the
    meaning is unambiguous), or a `payload_error` card when it is not usable."""
    if payload is None:
        return None
    kind = payload.get("type") if isinstance(payload, dict) else None
    if not isinstance(kind, str) or not kind:
        logger.warning("tool %s returned a payload without a type", tool.name)
        card = payload_error(
            "unknown",
            f"The result card of {tool.name} could not be shown.",
            "A tool payload is an object {type, data} with a non-empty type.",
            payload,
        )
    else:
        card = check_payload_data(kind, tool.payload_schema, payload.get("data"))
        if card.type != kind:
            logger.warning("tool %s returned a %s payload off its schema", tool.name, kind)
    return card.model_dump(mode="json")


def _as_result(value: Any) -> ToolResult:
    if isinstance(value, ToolResult):
        return value
    if isinstance(value, Payload):
        # The model reads the data; the user sees the card.
        return ToolResult(value.model_dump_json(by_alias=True), payload=value)
    if value is None:
        return ToolResult("")
    return ToolResult(value if isinstance(value, str) else str(value))


async def _iterate_sync_generator(
    gen: Iterator[Any], cancelled: threading.Event
) -> AsyncIterator[Any]:
    """Drive a sync generator in a worker thread, handing its items to the event loop."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()
    stop = threading.Event()  # this call only; `cancelled` is the whole run's

    def _pump() -> None:
        try:
            while not (stop.is_set() or cancelled.is_set()):
                try:
                    item = next(gen)
                except StopIteration as finished:
                    if finished.value is not None:
                        loop.call_soon_threadsafe(queue.put_nowait, finished.value)
                    break
                loop.call_soon_threadsafe(queue.put_nowait, item)
        except BaseException as exc:  # handed to the loop, raised there
            loop.call_soon_threadsafe(queue.put_nowait, exc)
        finally:
            if stop.is_set() or cancelled.is_set():
                gen_close = getattr(gen, "close", None)
                if gen_close is not None:
                    with contextlib.suppress(Exception):
                        gen_close()
            with contextlib.suppress(RuntimeError):  # loop already closed
                loop.call_soon_threadsafe(queue.put_nowait, _DONE)

    worker = asyncio.ensure_future(asyncio.to_thread(_pump))
    try:
        while True:
            item = await queue.get()
            if item is _DONE:
                break
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        # On cancel or timeout the thread stops at its next item; we do not wait for it.
        stop.set()
        worker.add_done_callback(_retrieve_exception)


def _retrieve_exception(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


async def _raw_items(
    tool: ToolConfig, params: dict[str, Any], ctx: ToolContext
) -> AsyncIterator[Any]:
    executor = tool.executor
    if (
        inspect.isasyncgenfunction(executor)
        or inspect.iscoroutinefunction(executor)
        or inspect.isgeneratorfunction(executor)
    ):
        result = executor(params, ctx)
    else:
        # A plain function may block: keep it off the event loop.
        result = await asyncio.to_thread(executor, params, ctx)
    if inspect.isasyncgen(result):
        try:
            async for item in result:
                yield item
        finally:
            await result.aclose()
    elif inspect.isgenerator(result):
        async for item in _iterate_sync_generator(result, ctx.cancelled):
            yield item
    elif inspect.isawaitable(result):
        yield await result
    else:
        yield result


async def execute_tool(
    tool: ToolConfig, params: dict[str, Any], ctx: ToolContext
) -> AsyncIterator[ToolProgress | ToolResult]:
    """Yield the tool's progress as it happens, then exactly one `ToolResult`."""
    problem = validation_error(tool, params)
    if problem is not None:
        yield ToolResult(f"Invalid input for {tool.name}: {problem}", is_error=True)
        return
    final: ToolResult | None = None
    # This call's own stop signal, set on timeout as on cancel: a synchronous tool runs
    # in a thread nobody can interrupt, and `cancelled` is how it learns to give up.
    call = dataclasses.replace(ctx, cancelled=threading.Event())
    try:
        async with asyncio.timeout(tool.timeout):
            async for item in _raw_items(tool, params, call):
                if isinstance(item, ToolProgress):
                    yield item
                else:
                    final = _as_result(item)
        if final is not None and final.payload is not None:
            final = dataclasses.replace(final, payload=_card(tool, checked_payload(final.payload)))
    except TimeoutError:
        call.cancelled.set()
        yield ToolResult(f"Tool {tool.name} timed out after {tool.timeout:g} s.", is_error=True)
        return
    except asyncio.CancelledError:
        call.cancelled.set()
        ctx.cancelled.set()
        raise
    except ChartSpecError as exc:
        refused = f"Tool {tool.name} made a chart that cannot be shown: {exc}"
        yield ToolResult(refused, is_error=True)
        return
    except Exception as exc:
        logger.warning("tool %s failed", tool.name, exc_info=True)
        yield ToolResult(f"Tool {tool.name} failed: {type(exc).__name__}: {exc}", is_error=True)
        return
    yield final if final is not None else ToolResult("")
