"""The AI SDK's own reader over pagechat's UI message streams: `ai_sdk_reader.mjs` in Node,
with the `ai` package installed in web/ (the version the lock file pins)."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["UiRead", "read_ui_stream"]

_HERE = Path(__file__).resolve().parent
WEB = _HERE.parent.parent / "web"


@dataclass(frozen=True, slots=True, kw_only=True)
class UiRead:
    """What the SDK made of a stream: its chunks (each valid by its schema), the UI message
    it folded them into, and the error it threw, if any."""

    chunks: list[dict[str, Any]]
    message: dict[str, Any] | None
    error: str | None

    @property
    def types(self) -> list[str]:
        """Each chunk's type, in order."""
        return [c["type"] for c in self.chunks]

    def parts(self, kind: str) -> list[dict[str, Any]]:
        """The folded message's parts of one type."""
        return [p for p in (self.message or {}).get("parts", []) if p["type"] == kind]


def read_ui_stream(body: str, message: dict[str, Any] | None = None) -> UiRead:
    """Parse `body` (a response's SSE text) as `DefaultChatTransport` does, folding it onto
    `message` (the one it continues) with `readUIMessageStream`."""
    node = shutil.which("node")
    assert node is not None, "node is needed to read a stream with the AI SDK"
    assert (WEB / "node_modules/ai").is_dir(), "run `npm ci` in web/ first"
    done = subprocess.run(
        [node, str(_HERE / "ai_sdk_reader.mjs"), str(WEB)],
        input=json.dumps({"body": body, "message": message}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    read = json.loads(done.stdout)
    return UiRead(chunks=read["chunks"], message=read["message"], error=read["error"])
