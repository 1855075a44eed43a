"""OpenTelemetry traces of answers, with the GenAI semantic conventions; off by default.

A run's events are all a trace needs, so tracing observes them like the metrics
do (`Run.observers`) instead of reaching into the agent loop: one
`invoke_agent` span per answer, a `chat {model}` span per model call (the loop
calls the model, runs the tools it asked for, and calls it again, so a call
ends where a tool starts or the answer ends) and an `execute_tool {name}` span
per tool call. Span and attribute names follow
https://opentelemetry.io/docs/specs/semconv/gen-ai/ (the `gen_ai.*` namespace).

Turned on by `PAGECHAT_OTEL_TRACING=true`; spans go to the OTLP/HTTP exporter,
configured by the standard `OTEL_EXPORTER_OTLP_*` and `OTEL_SERVICE_NAME`
variables. The SDK is the `otel` extra.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

__all__ = ["RunTracer", "configure_tracing"]

logger = logging.getLogger(__name__)

_SCOPE = "pagechat"


def configure_tracing(provider: TracerProvider | None = None) -> Tracer:
    """Install `provider` (default: OTLP over HTTP, batched) and return pagechat's tracer."""
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise RuntimeError(
            "PAGECHAT_OTEL_TRACING needs the OpenTelemetry SDK: pip install 'pagechat[otel]'"
        ) from exc
    if provider is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider = TracerProvider(resource=Resource.create({"service.name": "pagechat"}))
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return provider.get_tracer(_SCOPE)


class RunTracer:
    """One answer's spans, opened and closed as its events pass."""

    __slots__ = ("_call", "_model", "_provider", "_root", "_tools", "_tracer")

    def __init__(
        self,
        tracer: Tracer,
        *,
        run_id: str,
        conversation_id: str | None,
        provider: str,
        model: str,
    ) -> None:
        self._tracer = tracer
        self._provider = provider
        self._model = model
        self._root: Span = tracer.start_span(
            "invoke_agent pagechat",
            kind=SpanKind.INTERNAL,
            attributes={
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "pagechat",
                "gen_ai.provider.name": provider,
                "gen_ai.request.model": model,
                "gen_ai.conversation.id": conversation_id or "",
                "pagechat.run.id": run_id,
            },
        )
        self._tools: list[tuple[str, Span]] = []
        """Open tool spans in call order, with the tool each belongs to."""
        self._call: Span | None = self._start_call()

    def _child(self, name: str, attributes: dict[str, Any], kind: SpanKind) -> Span:
        context = trace.set_span_in_context(self._root)
        return self._tracer.start_span(name, context=context, kind=kind, attributes=attributes)

    def _start_call(self) -> Span:
        return self._child(
            f"chat {self._model}",
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": self._provider,
                "gen_ai.request.model": self._model,
            },
            SpanKind.CLIENT,
        )

    def _end_call(self, status: Status | None = None) -> None:
        if self._call is not None:
            if status is not None:
                self._call.set_status(status)
            self._call.end()
            self._call = None

    def observe(self, event_type: str, event: Any) -> None:
        """Record the event in the run's trace: a span per model call and per tool call."""
        if event_type == "text_delta" or event_type == "tool_progress":
            return
        if event_type == "tool_start":
            self._end_call()
            span = self._child(
                f"execute_tool {event.tool}",
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": event.tool,
                    "gen_ai.tool.call.id": event.tool_use_id or "",
                    "gen_ai.tool.type": "function",
                },
                SpanKind.INTERNAL,
            )
            self._tools.append((event.tool, span))
        elif event_type == "tool_complete":
            self._end_tool(event)
        elif event_type == "status" and self._call is None and not self._tools:
            # The loop says "Thinking..." again when it calls the model with the results.
            self._call = self._start_call()
        elif event_type == "complete":
            usage = event.payload.usage
            if usage is not None:
                self._root.set_attribute("gen_ai.usage.input_tokens", usage.input_tokens)
                self._root.set_attribute("gen_ai.usage.output_tokens", usage.output_tokens)
                self._root.set_attribute(
                    "gen_ai.usage.cache_read.input_tokens", usage.cache_read_tokens
                )
                self._root.set_attribute(
                    "gen_ai.usage.cache_creation.input_tokens", usage.cache_write_tokens
                )
            self._end(None)
        elif event_type == "error":
            self._end(event.code or "error", event.message)
        elif event_type == "cancelled":
            self._end("cancelled", "stopped by the user")

    def _end_tool(self, event: Any) -> None:
        # tool_complete names the tool, not the call: the oldest open span of that tool.
        for position, (tool, span) in enumerate(self._tools):
            if tool == event.tool:
                if event.is_error:
                    span.set_attribute("error.type", "tool_error")
                    span.set_status(Status(StatusCode.ERROR))
                span.end()
                del self._tools[position]
                break

    def _end(self, error_type: str | None, message: str | None = None) -> None:
        status = None if error_type is None else Status(StatusCode.ERROR, message)
        self._end_call(status)
        for _, span in self._tools:
            span.end()
        self._tools.clear()
        if error_type is not None:
            self._root.set_attribute("error.type", error_type)
            self._root.set_status(Status(StatusCode.ERROR, message))
        self._root.end()
