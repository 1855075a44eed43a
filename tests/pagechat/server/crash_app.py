"""A real pagechat server whose model streams slowly: the crash test kills it mid-answer.

Usage: python crash_app.py PORT  (DATABASE_URL, PAGECHAT_STATE_DIR from the environment)
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import uvicorn

from pagechat.models import FunctionModel, ModelRequest, Pause, ScriptItem
from pagechat.server.app import create_app_from_settings
from pagechat.settings import Settings


async def _slow_reply(_request: ModelRequest) -> AsyncIterator[ScriptItem]:
    yield "The first words of a long answer"
    yield Pause(600)
    yield " that never arrive."


def main() -> None:
    app = create_app_from_settings(Settings(), model=FunctionModel(_slow_reply))
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")


if __name__ == "__main__":
    main()
