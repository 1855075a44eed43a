"""`horizon ...`: fill Horizon's article store and the demo account, from the command line.

| command | what |
|---|---|
| `horizon import PATH...` | import PubMed XML files (.xml, .xml.gz) or folders of them |
| `horizon sample [--count N]` | import the synthetic sample corpus |
| `horizon setup [--shared DIR]` | first-start data (what `make run` calls) |
| `horizon seed-demo [--shared DIR]` | the demo account (created if missing) and its data |

`setup` fills an empty article store and, when the demo account exists, gives it
its streams and reports; `seed-demo` first creates the demo account if missing.
`--shared` is the folder holding `data/pubmed/corpus` (default `HORIZON_SHARED_DIR`,
else `../shared`); without real files there, the synthetic sample is imported.

The database is `DATABASE_URL` (as for `pagechat`); it is migrated first.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession

from pagechat.auth import DEMO_EMAIL, DEMO_PASSWORD, ensure_account
from pagechat.settings import Settings
from pagechat.store import create_engine, create_sessionmaker, upgrade_async

from .domain import (
    SYNTHETIC_SAMPLE_SIZE,
    ImportCounts,
    corpus_dir,
    count_articles,
    ensure_articles,
    find_demo_user,
    import_articles,
    list_streams,
    seed_demo,
)
from .migrations import VERSION_LOCATIONS
from .pubmed import PubmedItem, PubmedParseError, corpus_files, iter_pubmed_xml, synthetic_corpus
from .settings import HorizonSettings

__all__ = ["main"]


class _Failure(Exception):
    """The command cannot do its job; the message is for the user."""


Job = Callable[[AsyncSession], Coroutine[Any, Any, None]]


async def _run(database_url: str, job: Job) -> None:
    engine = create_engine(database_url)
    try:
        await upgrade_async(engine, version_locations=VERSION_LOCATIONS)
        async with create_sessionmaker(engine)() as session:
            await job(session)
            await session.commit()
    finally:
        await engine.dispose()


def _counts_line(counts: ImportCounts) -> str:
    line = (
        f"{counts.records} records read: {counts.inserted} new, {counts.updated} updated"
        f"; {counts.deletions} deletions read: {counts.deleted} deleted"
    )
    if counts.kept:
        line += f", {counts.kept} kept (listed in reports)"
    return line


def _files(paths: Sequence[str]) -> list[tuple[Path, str]]:
    """Each file to read, with the name its records are stored under, in import order."""
    found: list[tuple[Path, str]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += [(f, f.relative_to(path).as_posix()) for f in corpus_files(path)]
        elif path.is_file():
            found.append((path, path.name))
        else:
            raise _Failure(f"no such file or folder: {raw}")
    return found


def _cmd_import(args: argparse.Namespace) -> Job:
    files = _files(args.paths)
    if not files:
        raise _Failure("no .xml or .xml.gz files found")

    async def job(session: AsyncSession) -> None:
        total = ImportCounts()
        for path, name in files:
            items: Iterator[PubmedItem] = iter_pubmed_xml(path, source_name=name)
            try:
                counts = await import_articles(session=session, records=items)
            except (PubmedParseError, OSError) as exc:
                raise _Failure(f"{path}: {exc}") from None
            print(f"{path}: {_counts_line(counts)}")
            total.add(counts)
        stored = await count_articles(session=session)
        print(f"Total: {_counts_line(total)}. The store holds {stored} articles.")

    return job


def _cmd_sample(args: argparse.Namespace) -> Job:
    if args.count < 1:
        raise _Failure("--count must be at least 1")

    async def job(session: AsyncSession) -> None:
        counts = await import_articles(session=session, records=synthetic_corpus(args.count))
        stored = await count_articles(session=session)
        print(f"Synthetic sample: {_counts_line(counts)}. The store holds {stored} articles.")

    return job


def _shared_dir(args: argparse.Namespace) -> Path:
    return Path(args.shared) if args.shared else HorizonSettings().shared_dir


async def _articles(session: AsyncSession, shared_dir: Path) -> None:
    counts = await ensure_articles(session=session, shared_dir=shared_dir)
    stored = await count_articles(session=session)
    if counts is None:
        print(f"Articles: the store holds {stored} articles already.")
    else:
        source = "PubMed files" if corpus_dir(shared_dir).is_dir() else "the synthetic sample"
        print(f"Articles from {source}: {_counts_line(counts)}. The store holds {stored}.")


async def _demo_streams(session: AsyncSession, user_id: str) -> None:
    seeded = await seed_demo(session=session, user_id=user_id)
    streams = await list_streams(session=session, user_id=user_id)
    reports = sum(s.report_count for s in streams)
    state = "created" if seeded else "already there"
    print(f"Demo streams ({state}): {len(streams)} streams, {reports} reports.")


def _cmd_setup(args: argparse.Namespace) -> Job:
    shared_dir = _shared_dir(args)

    async def job(session: AsyncSession) -> None:
        await _articles(session, shared_dir)
        user = await find_demo_user(session=session)
        if user is None:
            print(f"No demo account ({DEMO_EMAIL}): no demo streams made.")
        else:
            await _demo_streams(session, user.id)

    return job


def _cmd_seed_demo(args: argparse.Namespace) -> Job:
    shared_dir = _shared_dir(args)

    async def job(session: AsyncSession) -> None:
        user, created = await ensure_account(
            session=session, email=DEMO_EMAIL, password=DEMO_PASSWORD
        )
        note = "created" if created else "already there; its password is left as it is"
        print(f"Demo account: {DEMO_EMAIL} / {DEMO_PASSWORD} ({note})")
        await _articles(session, shared_dir)
        await _demo_streams(session, user.id)

    return job


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="horizon", description="Horizon's data")
    sub = parser.add_subparsers(dest="command", required=True)
    imp = sub.add_parser("import", help="import PubMed XML files or folders of them")
    imp.add_argument("paths", nargs="+", metavar="PATH")
    imp.set_defaults(func=_cmd_import)
    sample = sub.add_parser("sample", help="import the synthetic sample corpus")
    sample.add_argument("--count", type=int, default=SYNTHETIC_SAMPLE_SIZE)
    sample.set_defaults(func=_cmd_sample)
    shared_help = "the folder holding data/pubmed/corpus (default: HORIZON_SHARED_DIR)"
    setup = sub.add_parser("setup", help="first-start data: articles, the demo account's streams")
    setup.add_argument("--shared", metavar="DIR", help=shared_help)
    setup.set_defaults(func=_cmd_setup)
    seed = sub.add_parser("seed-demo", help="the demo account and its streams and reports")
    seed.add_argument("--shared", metavar="DIR", help=shared_help)
    seed.set_defaults(func=_cmd_seed_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        job: Job = args.func(args)
        asyncio.run(_run(Settings().database_url, job))
    except _Failure as exc:
        print(f"horizon: error: {exc}", file=sys.stderr)
        return 1
    except (SQLAlchemyError, OSError) as exc:
        print(f"horizon: error: database unavailable: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
