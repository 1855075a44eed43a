"""The forms an API key has been seen to leak in, for the redaction tests."""

from __future__ import annotations

import base64
from urllib.parse import quote

__all__ = ["leaks"]


def leaks(key: str) -> dict[str, str]:
    """How providers and proxies have been seen to quote a key in an error."""
    return {
        "whole": f"invalid x-api-key: {key}",
        "prefix and suffix": f"key {key[:14]}...{key[-6:]} is not valid",
        "masked with stars": f"Incorrect API key provided: {key[:8]}{'*' * 20}{key[-4:]}",
        "base64": f"Authorization: Basic {base64.b64encode(key.encode()).decode()}",
        "basic user:key": f"auth {base64.b64encode(f'user:{key}'.encode()).decode()} rejected",
        "url-encoded": f"GET /v1?key={quote(key, safe='')} failed",
        "bearer": f"header Authorization: Bearer {key}",
        "a middle stretch": f"fragment {key[12:30]} seen",
    }
