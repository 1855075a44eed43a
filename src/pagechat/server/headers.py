"""Security headers on every response, and `Cache-Control: no-store` on the API.

The web UI is built without inline script (Vite emits module files), so the policy
allows scripts from this origin only: an injected `<script>` or `onclick=` does not
run even if markup ever got through. Styles allow inline `style` attributes, which
React uses for sizes and positions. Images: this origin and `data:` only; the chat's
markdown never loads remote images anyway (they could track the reader).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

_ALWAYS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


class SecurityHeaders:
    """Pure ASGI (no buffering): streamed answers pass through untouched but for headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        private = path.startswith(("/api/", "/metrics"))

        async def _send(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _ALWAYS.items():
                    headers.setdefault(name, value)
                if private:
                    # Answers are one user's data: no cache, shared or private, keeps them.
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, _send)
