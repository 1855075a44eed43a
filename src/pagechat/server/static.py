"""The built web UI, served as a single-page app.

A path the browser asks for that is no file (a client-side route such as
`/conversations/abc`) gets `index.html`, so reloading any page of the app
works. Missing assets and unknown `/api/` paths stay 404s.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

__all__ = ["SpaStaticFiles"]


def _is_client_route(path: str) -> bool:
    if path == "api" or path.startswith("api/"):
        return False
    # A last segment with a dot names a file (app.js, logo.png): that one really is missing.
    return "." not in PurePosixPath(path).name


class SpaStaticFiles(StaticFiles):
    """Static files that answer `index.html` for client-side routes and hide source maps."""

    def __init__(self, *, directory: str) -> None:
        super().__init__(directory=directory, html=True)

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path.endswith(".map"):
            # Source maps give the whole client source away; development has Vite's own.
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        try:
            return await super().get_response(path, scope)
        except HTTPException as exc:
            if exc.status_code != 404:
                raise
            if scope["method"] in ("GET", "HEAD") and _is_client_route(path):
                return await super().get_response("index.html", scope)
            return JSONResponse({"detail": "Not Found"}, status_code=404)
