"""Typed tools: a `ToolConfig` made from a function's signature and docstring.

    @tool
    def save_note(
        title: Annotated[str, Field(description="A few words")], body: str, ctx: ToolContext
    ) -> Note:
        \"\"\"Save a note for the user.\"\"\"

The parameters become a pydantic model: its JSON Schema (descriptions and defaults
included) is the tool's `input_schema`, and it validates every call, so the function
gets typed values and the model reads which fields were wrong. A parameter annotated
`ToolContext` gets the call's context and is not part of the input. The description is
the whole docstring (cleaned); the name is the function's. A `Payload` model in the
return annotation (also as `X | None` or what a generator yields) sets `payload_schema` and
`payload_type`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import types
import typing
from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    AsyncIterator,
    Callable,
    Generator,
    Iterable,
    Iterator,
)
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack, overload

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from ..payloads import Payload, model_schema
from .types import ToolConfig, ToolContext, ToolExecutor

__all__ = ["ToolOptions", "function_tool", "model_error", "tool"]

_ITERATORS = (AsyncGenerator, AsyncIterable, AsyncIterator, Generator, Iterable, Iterator)


class ToolOptions(TypedDict, total=False):
    """What `tool` takes besides the function; each is the `ToolConfig` field of that name,
    and one left out keeps the field's default."""

    name: str
    description: str
    timeout: float
    required_role: str | None
    requires_approval: bool | Callable[[dict[str, Any]], bool]
    approval_reason: str | Callable[[dict[str, Any]], str] | None
    result_is_answer: bool
    safe_to_repeat: bool
    needs_user: bool


@overload
def tool(function: Callable[..., Any], /) -> ToolConfig: ...


@overload
def tool(**options: Unpack[ToolOptions]) -> Callable[[Callable[..., Any]], ToolConfig]: ...


def tool(
    function: Callable[..., Any] | None = None, /, **options: Unpack[ToolOptions]
) -> ToolConfig | Callable[[Callable[..., Any]], ToolConfig]:
    """Make a function a tool: `@tool`, or `@tool(name=..., requires_approval=True, ...)`.

    The decorated name is a `ToolConfig`, ready for `register_page(tools=[...])` or
    `register_tool`. The function may be plain or async, or a (sync or async) generator
    yielding `ToolProgress` and ending with its result. It returns a `str`, a
    `ToolResult`, or a `Payload` (the model reads its data as JSON; the user sees the card).
    """
    if function is not None:
        return function_tool(function, **options)

    def decorate(function: Callable[..., Any]) -> ToolConfig:
        return function_tool(function, **options)

    return decorate


def function_tool(function: Callable[..., Any], /, **options: Unpack[ToolOptions]) -> ToolConfig:
    """The `ToolConfig` of `function`: what `@tool` returns, for a function not decorated."""
    name = options.get("name", function.__name__)
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except NameError as exc:
        # Annotations are resolved in the function's module globals: a class made inside
        # another function is out of reach. Said now, not at the first call.
        raise TypeError(f"tool {name!r}: an annotation names what is not found: {exc}") from exc
    call = _Call.of(function, name, hints)
    payload = _payload_model(hints.get("return"))
    config = ToolConfig(
        name=name,
        description=inspect.getdoc(function) or "",
        input_schema=model_schema(call.model),
        executor=_executor(function, call),
        input_model=call.model,
        payload_schema=payload.payload_schema() if payload is not None else None,
        payload_type=payload.payload_type if payload is not None else None,
    )
    config = dataclasses.replace(config, **options)
    if not config.description.strip():
        raise TypeError(f"tool {name!r} needs a description: a docstring, or description=")
    return config


def model_error(model: type[BaseModel], value: Any) -> str | None:
    """Why `value` is not valid input for `model`, every bad field named, or None."""
    try:
        model.model_validate(value)
    except ValidationError as exc:
        return "; ".join(_problem(error["loc"], error["msg"]) for error in exc.errors())
    return None


def _problem(loc: tuple[int | str, ...], message: str) -> str:
    # Paths written as `schema_error` writes them, so both kinds of error read alike.
    where = "/".join(str(part) for part in loc)
    return f"{where}: {message}" if where else message


@dataclass(frozen=True)
class _Call:
    """How to call the function: its input model, and for each parameter in order,
    its name, whether it is the context, and whether it is passed by position."""

    model: type[BaseModel]
    parameters: tuple[tuple[str, bool, bool], ...]

    @classmethod
    def of(cls, function: Callable[..., Any], name: str, hints: dict[str, Any]) -> _Call:
        """The call of `function`, whose resolved annotations are `hints`."""
        fields: dict[str, Any] = {}
        parameters: list[tuple[str, bool, bool]] = []
        for parameter in inspect.signature(function).parameters.values():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                raise TypeError(f"tool {name!r}: *{parameter.name} has no place in a schema")
            hint = hints.get(parameter.name, Any)
            is_context = _is_context(hint)
            parameters.append(
                (parameter.name, is_context, parameter.kind == parameter.POSITIONAL_ONLY)
            )
            if not is_context:
                default = ... if parameter.default is parameter.empty else parameter.default
                fields[parameter.name] = (hint, default)
        # Extra arguments are refused: a misspelt optional one would otherwise vanish.
        config = ConfigDict(extra="forbid", protected_namespaces=())
        model = create_model(f"{name}_input", __config__=config, **fields)
        return cls(model, tuple(parameters))

    def arguments(
        self, params: dict[str, Any], ctx: ToolContext
    ) -> tuple[list[Any], dict[str, Any]]:
        """The positional and keyword arguments for a call with this input."""
        validated = self.model.model_validate(params)
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for name, is_context, positional in self.parameters:
            value = ctx if is_context else getattr(validated, name)
            if positional:
                args.append(value)
            else:
                kwargs[name] = value
        return args, kwargs


def _is_context(hint: Any) -> bool:
    """Whether a parameter so annotated gets the context: `ToolContext`, also as
    `ToolContext | None` or `Annotated[ToolContext, ...]`."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _is_context(typing.get_args(hint)[0])
    if origin in (typing.Union, types.UnionType):
        kinds = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return len(kinds) == 1 and _is_context(kinds[0])
    return isinstance(hint, type) and issubclass(hint, ToolContext)


def _executor(function: Callable[..., Any], call: _Call) -> ToolExecutor:
    """An executor of the same kind as `function`: `execute_tool` runs plain functions
    in a thread and the others on the event loop, by what the executor is."""
    if inspect.isasyncgenfunction(function):

        async def stream(params: dict[str, Any], ctx: ToolContext) -> AsyncIterator[Any]:
            args, kwargs = call.arguments(params, ctx)
            async with contextlib.aclosing(function(*args, **kwargs)) as items:
                async for item in items:
                    yield item

        return stream
    if inspect.isgeneratorfunction(function):

        def generate(params: dict[str, Any], ctx: ToolContext) -> Generator[Any, None, Any]:
            args, kwargs = call.arguments(params, ctx)
            return (yield from function(*args, **kwargs))

        return generate
    if inspect.iscoroutinefunction(function):

        async def run_async(params: dict[str, Any], ctx: ToolContext) -> Any:
            args, kwargs = call.arguments(params, ctx)
            return await function(*args, **kwargs)

        return run_async

    def run(params: dict[str, Any], ctx: ToolContext) -> Any:
        args, kwargs = call.arguments(params, ctx)
        return function(*args, **kwargs)

    return run


def _payload_model(annotation: Any) -> type[Payload] | None:
    """The one `Payload` model a return annotation names, or None (none, or several)."""
    found = set(_payload_models(annotation))
    return found.pop() if len(found) == 1 else None


def _payload_models(annotation: Any) -> Iterator[type[Payload]]:
    if isinstance(annotation, type) and issubclass(annotation, Payload):
        yield annotation
        return
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        yield from _payload_models(args[0])
    elif origin in (typing.Union, types.UnionType):
        for arg in args:
            yield from _payload_models(arg)
    elif origin in _ITERATORS and args:
        # What a generator yields, and for `Generator[Y, S, R]` what it returns.
        yield from _payload_models(args[0])
        if origin is Generator and len(args) == 3:
            yield from _payload_models(args[2])
