"""A real Horizon server for the browser tests: its own SQLite file, two accounts, the
offline model.

Run with the project's Python: `../.venv/bin/python e2e/horizon_server.py --static dist`.
It prints `PUBMED <local|eutils>` (where `search_pubmed` looks), then `PORT <n>` once it
listens on 127.0.0.1 (a free port unless --port is given), and deletes its temporary
folder when it stops.

What it sets up, all through Horizon's own code:

* a fresh database (migrated at start) in a temporary folder;
* the demo account (demo@example.com / demo) and a second one
  (other@example.com / other-password), which owns nothing;
* Horizon's start-up data: the article store filled from the shared PubMed files
  (`<shared>/data/pubmed/corpus`) or, without them, the synthetic sample, and the demo
  account's streams and reports;
* the offline model, whatever API keys the environment holds (`PAGECHAT_PROVIDER=offline`).

PubMed: with the shared files present, `search_pubmed` asks a fake E-utilities server
(`tests/fakes/eutils_server.py`: real NCBI records, real wire format) that answers after
`--pubmed-latency` seconds, as the real service does, so a search's progress is on screen
long enough to see. Without them, it searches the local article store.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

import uvicorn

REPO = Path(__file__).resolve().parents[2]
DEMO = ("demo@example.com", "demo")
OTHER = ("other@example.com", "other-password")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _shared_dir() -> Path:
    return Path(os.environ.get("HORIZON_SHARED_DIR") or REPO.parent / "shared").resolve()


def _configure(folder: Path, static: Path, shared: Path) -> None:
    """The environment every setting is read from (before any app code reads it)."""
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGECHAT_MODEL"):
        os.environ.pop(key, None)
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'horizon.db'}",
            "PAGECHAT_PROVIDER": "offline",
            "PAGECHAT_SECRET": secrets.token_urlsafe(48),
            "PAGECHAT_STATE_DIR": str(folder / "state"),
            "PAGECHAT_WEB_DIR": str(static),
            "HORIZON_SHARED_DIR": str(shared),
            "HORIZON_PUBMED": "local",
        }
    )


async def _accounts() -> None:
    """Both accounts, in the migrated database (the app's start hook then seeds the demo one)."""
    from horizon.migrations import VERSION_LOCATIONS
    from pagechat.auth import ensure_account
    from pagechat.settings import Settings
    from pagechat.store import create_engine, create_sessionmaker, upgrade_async

    engine = create_engine(Settings().database_url)
    try:
        await upgrade_async(engine, version_locations=VERSION_LOCATIONS)
        async with create_sessionmaker(engine)() as session:
            for email, password in (DEMO, OTHER):
                await ensure_account(session=session, email=email, password=password)
            await session.commit()
    finally:
        await engine.dispose()


def _slow_eutils(pubmed_dir: Path, latency: float) -> Any:
    """The fake E-utilities server, each answer `latency` seconds late; started."""
    sys.path.insert(0, str(REPO))
    from tests.fakes.eutils_server import FakeEutils

    class SlowEutils(FakeEutils):
        def _app(self) -> Any:
            app = super()._app()

            async def late(scope: Any, receive: Any, send: Any) -> None:
                if scope["type"] == "http":
                    await asyncio.sleep(latency)
                await app(scope, receive, send)

            return late

    return SlowEutils(pubmed_dir).start()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--static", type=Path, default=Path(__file__).resolve().parent.parent / "dist"
    )
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--pubmed-latency", type=float, default=0.4, metavar="SECONDS")
    args = parser.parse_args()
    static = args.static.resolve()
    if not (static / "index.html").is_file():
        print(f"{static} has no index.html: run `npm run build` first", file=sys.stderr)
        return 2

    # uvicorn re-raises the SIGTERM it stopped on once it is done: end through `finally`.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    folder = Path(tempfile.mkdtemp(prefix="horizon-e2e-"))
    eutils = None
    try:
        shared = _shared_dir()
        _configure(folder, static, shared)
        pubmed_dir = shared / "data" / "pubmed"
        if (pubmed_dir / "corpus" / "metapub_pmid_xml").is_dir():
            eutils = _slow_eutils(pubmed_dir, args.pubmed_latency)
            os.environ["HORIZON_PUBMED"] = "eutils"
            os.environ["HORIZON_EUTILS_URL"] = eutils.base_url
        asyncio.run(_accounts())
        print(f"PUBMED {os.environ['HORIZON_PUBMED']}", flush=True)

        from horizon.app import create_app

        port = args.port or _free_port()
        server = uvicorn.Server(
            uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
        )

        async def serve() -> None:
            task = asyncio.create_task(server.serve())
            # uvicorn offers a flag, not an event, for "listening".
            while not server.started and not task.done():  # noqa: ASYNC110
                await asyncio.sleep(0.05)
            if server.started:
                print(f"PORT {port}", flush=True)
            await task

        asyncio.run(serve())
    finally:
        if eutils is not None:
            eutils.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
