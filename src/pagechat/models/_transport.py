"""What the SDKs' aiohttp transport reports wrongly, told apart in one place.

Both providers stream through the aiohttp transport the anthropic and openai
SDKs ship (`DefaultAioHttpClient`): it relays a stream with about a third less
CPU per token than their default httpx one (bench/load.py), and CPU per token is
what bounds how many answers one process streams at once.
"""

from __future__ import annotations

__all__ = ["is_connection_failure"]


def is_connection_failure(err: BaseException) -> bool:
    """Whether a timeout the SDK reports is really a refused or unresolvable connection.

    The vendored transport maps every aiohttp connection error to `ConnectTimeout`
    (reported upstream in the review of openai-python PR #3594), so a refused
    connection arrives as `APITimeoutError`. The original error is in the cause
    chain: an `OSError` that is not a `TimeoutError`.
    """
    seen: set[int] = set()
    cause = err.__cause__ or err.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, OSError) and not isinstance(cause, TimeoutError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False
