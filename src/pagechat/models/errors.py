"""Exceptions of the model layer; each class means one thing."""

from __future__ import annotations

from typing import Literal

__all__ = ["ModelOutputError", "ProviderError", "ProviderErrorKind"]

ProviderErrorKind = Literal[
    "rate_limit",
    "overloaded",
    "auth",
    "timeout",
    "connection",
    "server",
    "bad_request",
    "stream",
]

_RETRYABLE: frozenset[ProviderErrorKind] = frozenset(
    {"rate_limit", "overloaded", "server", "connection", "timeout"}
)


class ProviderError(Exception):
    """The provider failed (HTTP error, network, timeout, error event mid-stream).

    `str(err)` is safe to show to a user: it never carries the API key or the
    request body.
    """

    def __init__(
        self,
        kind: ProviderErrorKind,
        message: str,
        *,
        status_code: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: ProviderErrorKind = kind
        self.status_code = status_code
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        """Whether trying again may succeed (rate limit, overload, timeout, connection)."""
        return self.kind in _RETRYABLE


class ModelOutputError(Exception):
    """The model produced output we cannot use (e.g. tool input that is not JSON)."""
