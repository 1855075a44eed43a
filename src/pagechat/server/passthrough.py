"""An answer's body frames, sent past the middleware that only look at a response's start.

Every frame of an answer passes each ASGI `send` wrapper between the server and the
route, one coroutine per wrapper per token: pagechat's `SecurityHeaders` and
`BodySizeLimit`, Starlette's exception middleware and the route's own exception
wrapper. All of them act on `http.response.start` alone and pass a body message on
as it is, and together they were ~4 % of a token's instructions (callgrind,
docs/performance.md). So `BodyPassThrough`, installed outside them, records the
`send` it is given, and `EventStream` sends its start through the whole chain (every
header is still added, every wrapper sees the response start) and its body frames
straight to that `send` (`body_send`).

Middleware the app adds (`add_middleware`, `@app.middleware`) goes outside
`BodyPassThrough` and so still sees every frame: a middleware that rewrites bodies
keeps working. The frames take the short way only from a route of the app itself:
a mounted app or router, which may have middleware of its own, gets the usual send.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["BodyPassThrough", "body_send"]

_KEY = "pagechat.body_send"


class BodyPassThrough:
    """Records the `send` outside pagechat's own middleware (pure ASGI, nothing else)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            # With what identifies this app and its own routes: see `body_send`.
            scope[_KEY] = (scope.get("app"), scope.get("root_path", ""), send)
        await self.app(scope, receive, send)


def body_send(scope: Scope, send: Send) -> Send:
    """Where a response's body frames go: the recorded `send`, or `send` as given when
    the route is not the recording app's own (a mounted app sets its own `app`, a mount
    extends `root_path`)."""
    recorded = scope.get(_KEY)
    if recorded is None:
        return send
    app, root_path, outer = recorded
    if app is None or scope.get("app") is not app or scope.get("root_path", "") != root_path:
        return send
    outer_send: Send = outer
    return outer_send
