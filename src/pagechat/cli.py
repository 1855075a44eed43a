"""`pagechat` command line."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import importlib
import json
import socket
import sys
from collections.abc import AsyncIterator, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

if TYPE_CHECKING:
    from fastapi import FastAPI
    from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

    from .auth.sessions import SessionRegistry
    from .settings import Settings

__all__ = ["main"]


class _Failure(Exception):
    """A command could not do its job; the message is for the user."""


def _cmd_schema(args: argparse.Namespace) -> int:
    from .protocol import wire_schema

    json.dump(wire_schema(), sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")
    return 0


def _version_locations(spec: str | None) -> tuple[Path, ...]:
    """An application's own migrations: `VERSION_LOCATIONS` of the module `--app` names.

    pagechat's commands must know them, or a database the application has
    migrated holds revisions pagechat's history cannot place.
    """
    from .apps import AppNotFound, load_app_factory

    if not spec:
        return ()
    try:
        load_app_factory(spec, app_dir=Path.cwd())
    except AppNotFound as exc:
        raise _Failure(str(exc)) from None
    module = importlib.import_module(spec.partition(":")[0])  # imported just now
    return tuple(Path(p) for p in getattr(module, "VERSION_LOCATIONS", ()))


async def _upgraded(database_url: str, locations: tuple[Path, ...]) -> tuple[str, ...]:
    from .store.migrate import current_revisions, upgrade_async

    await upgrade_async(database_url, version_locations=locations)
    return await current_revisions(database_url)


def _cmd_db_upgrade(args: argparse.Namespace) -> int:
    from .settings import Settings
    from .store.db import display_url

    settings = Settings()
    locations = _version_locations(_app_spec(args.app, settings.app))
    revisions = asyncio.run(_upgraded(settings.database_url, locations))
    print(f"Database {display_url(settings.database_url)} is at {', '.join(revisions)}")
    return 0


def _ask_password() -> str:
    first = getpass.getpass("Password: ")
    if not first:
        raise _Failure("the password must not be empty")
    if getpass.getpass("Password (again): ") != first:
        raise _Failure("the passwords do not match")
    return first


async def _create_user(
    database_url: str, email: str, password: str, is_admin: bool, locations: tuple[Path, ...]
) -> str:
    from .auth.accounts import EmailTaken, InvalidEmail, create_account
    from .store.db import create_engine, create_sessionmaker
    from .store.migrate import upgrade_async

    engine = create_engine(database_url)
    try:
        await upgrade_async(engine, version_locations=locations)
        async with create_sessionmaker(engine).begin() as session:
            user = await create_account(
                session=session, email=email, password=password, is_admin=is_admin
            )
            return user.email
    except InvalidEmail:
        raise _Failure(f"{email!r} is not an email address") from None
    except EmailTaken:
        raise _Failure(f"an account for {email.strip().lower()} already exists") from None
    finally:
        await engine.dispose()


def _cmd_users_create(args: argparse.Namespace) -> int:
    from .auth.policy import WeakPassword, check_password
    from .settings import Settings

    password = args.password if args.password is not None else _ask_password()
    try:
        check_password(password, email=args.email)
    except WeakPassword as exc:
        raise _Failure(str(exc)) from None
    settings = Settings()
    locations = _version_locations(_app_spec(args.app, settings.app))
    email = asyncio.run(
        _create_user(settings.database_url, args.email, password, args.admin, locations)
    )
    role = "admin" if args.admin else "user"
    print(f"Created {role} {email}")
    return 0


async def _ensure_demo(database_url: str, locations: tuple[Path, ...]) -> bool:
    from .auth.accounts import DEMO_EMAIL, DEMO_PASSWORD, ensure_account
    from .store.db import create_engine, create_sessionmaker
    from .store.migrate import upgrade_async

    engine = create_engine(database_url)
    try:
        await upgrade_async(engine, version_locations=locations)
        async with create_sessionmaker(engine).begin() as session:
            _, created = await ensure_account(
                session=session, email=DEMO_EMAIL, password=DEMO_PASSWORD
            )
            return created
    finally:
        await engine.dispose()


def _cmd_users_ensure_demo(args: argparse.Namespace) -> int:
    from .auth.accounts import DEMO_EMAIL, DEMO_PASSWORD
    from .settings import Settings

    settings = Settings()
    created = asyncio.run(
        _ensure_demo(settings.database_url, _version_locations(_app_spec(args.app, settings.app)))
    )
    note = "created" if created else "already there; its password is left as it is"
    print(f"Demo account: {DEMO_EMAIL} / {DEMO_PASSWORD} ({note})")
    return 0


@contextlib.asynccontextmanager
async def _accounts(
    settings: Settings, locations: tuple[Path, ...]
) -> AsyncIterator[tuple[async_sessionmaker[AsyncSession], SessionRegistry]]:
    """The migrated database's sessions and the session registry, with the session cache
    in Redis when `REDIS_URL` is set (so every worker sees what this command ends)."""
    from .auth.session_cache import SessionCache
    from .auth.sessions import SessionRegistry
    from .redis_client import connect_redis
    from .store.db import create_engine, create_sessionmaker
    from .store.migrate import upgrade_async

    engine = create_engine(settings.database_url)
    cache = None
    if settings.redis_url is not None:
        cache = SessionCache(connect_redis(settings.redis_url, cluster=settings.redis_cluster))
    try:
        await upgrade_async(engine, version_locations=locations)
        sessions = create_sessionmaker(engine)
        yield sessions, SessionRegistry(sessions=sessions, cache=cache)
    finally:
        if cache is not None:
            await cache.aclose()
        await engine.dispose()


async def _disable(settings: Settings, email: str, locations: tuple[Path, ...]) -> int:
    from .auth.accounts import NoSuchAccount, disable_account

    async with _accounts(settings, locations) as (sessions, registry):
        try:
            _, ended = await disable_account(sessions=sessions, registry=registry, email=email)
        except NoSuchAccount:
            raise _Failure(f"no account for {email.strip().lower()}") from None
    return ended


def _cmd_users_disable(args: argparse.Namespace) -> int:
    from .settings import Settings

    settings = Settings()
    locations = _version_locations(_app_spec(args.app, settings.app))
    ended = asyncio.run(_disable(settings, args.email, locations))
    print(
        f"Disabled {args.email.strip().lower()}: {ended} sessions ended; its running answers "
        "stop within a second"
    )
    return 0


async def _enable(settings: Settings, email: str, locations: tuple[Path, ...]) -> None:
    from .auth.accounts import NoSuchAccount, enable_account

    async with _accounts(settings, locations) as (sessions, _registry):
        try:
            await enable_account(sessions=sessions, email=email)
        except NoSuchAccount:
            raise _Failure(f"no account for {email.strip().lower()}") from None


def _cmd_users_enable(args: argparse.Namespace) -> int:
    from .settings import Settings

    settings = Settings()
    asyncio.run(
        _enable(settings, args.email, _version_locations(_app_spec(args.app, settings.app)))
    )
    print(f"Enabled {args.email.strip().lower()}: it can sign in again")
    return 0


async def _api_key_command(settings: Settings, args: argparse.Namespace) -> list[str]:
    from .auth.api_keys import create_api_key
    from .store.credentials import delete_api_key, list_api_keys
    from .store.users import get_user_by_email

    locations = _version_locations(_app_spec(args.app, settings.app))
    async with (
        _accounts(settings, locations) as (sessions, _registry),
        sessions.begin() as session,
    ):
        if args.api_keys_command == "revoke":
            if not await delete_api_key(session=session, key_id=args.key_id, user_id=None):
                raise _Failure(f"no API key {args.key_id}")
            return [f"Revoked API key {args.key_id}"]
        user = await get_user_by_email(session=session, email=args.email)
        if user is None:
            raise _Failure(f"no account for {args.email.strip().lower()}")
        if args.api_keys_command == "create":
            if not 1 <= len(args.name.strip()) <= 100:
                raise _Failure("the name must have 1 to 100 characters")
            made = await create_api_key(session=session, user_id=user.id, name=args.name)
            return [
                made.key,
                f"API key {made.id} ({made.name}) for {user.email}: shown this once; "
                "send it as 'Authorization: Bearer <key>'",
            ]
        rows = await list_api_keys(session=session, user_id=user.id)
        return [f"{r.id}  {r.prefix}...  {r.created_at:%Y-%m-%d %H:%M}  {r.name}" for r in rows]


def _cmd_api_keys(args: argparse.Namespace) -> int:
    from .settings import Settings

    lines = asyncio.run(_api_key_command(Settings(), args))
    if args.api_keys_command == "create":
        print(lines[0])  # alone on standard output, for a script to capture
        print(lines[1], file=sys.stderr)
    else:
        print("\n".join(lines))
    return 0


def _load_app(spec: str | None) -> FastAPI:
    """`module:factory` names an application's app factory; none is plain pagechat.

    The current directory comes first on the Python path (as with uvicorn), so an app
    module beside the caller is found without being installed.
    """
    from .apps import AppNotFound, load_app_factory

    try:
        factory = load_app_factory(spec, app_dir=Path.cwd())
    except AppNotFound as exc:
        raise _Failure(str(exc)) from None
    return factory()


def _app_spec(given: str | None, from_environment: str | None) -> str | None:
    """`--app`, else `PAGECHAT_APP`, else `[tool.pagechat] app` in ./pyproject.toml."""
    from .apps import configured_app

    return given or from_environment or configured_app(Path.cwd())


def _cmd_new(args: argparse.Namespace) -> int:
    from .scaffold import ScaffoldError, new_project

    try:
        root = new_project(args.name, parent=Path(args.directory))
    except ScaffoldError as exc:
        raise _Failure(str(exc)) from None
    print(f"Created {root}. Next:")
    print(f"  cd {root} && pip install -e . && pytest")
    print("  pagechat users create you@example.com && pagechat serve")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import gc

    import uvicorn

    from .settings import Settings

    class _Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            # The app's startup (migrations included) has run: what is alive now lives as
            # long as the process. Frozen, it is no longer walked by the collector's full
            # passes (~130 ms for ~230,000 objects, every stream stalled meanwhile), and a
            # young generation of 50,000 keeps per-token garbage out of the old one. Here,
            # not in the app's lifespan: gc.freeze() is process-wide.
            await super().startup(sockets=sockets)
            gc.collect()
            gc.freeze()
            gc.set_threshold(50_000, 20, 100)

    settings = Settings()
    spec = _app_spec(args.app, settings.app)
    # Migrations run in the app's startup, before the first request is accepted.
    app = _load_app(spec)
    if args.workers > 1:
        return _serve_workers(args, spec, settings.redis_url)
    server = _Server(
        uvicorn.Config(app, host=args.host, port=args.port, log_level="info", **_limits(settings))
    )
    with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run: Ctrl-C is a clean stop
        server.run()
    return 0 if server.started else 3


def _limits(settings: Settings) -> dict[str, Any]:
    """uvicorn's side of the server's limits (docs/security.md, docs/deploy.md)."""
    trusted = [p.strip() for p in settings.trusted_proxies.split(",") if p.strip()]
    return {
        "http": "pagechat.server.guard:GuardedHttpProtocol",
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": settings.keepalive_seconds,
        # uvicorn believes X-Forwarded-For from loopback unless told otherwise: anyone
        # reaching the server through a local proxy would pick their own address.
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or [],
        "server_header": False,
    }


def app_factory() -> FastAPI:
    """The app of `PAGECHAT_APP`: what each worker of `pagechat serve --workers N` loads."""
    from .settings import Settings

    return _load_app(Settings().app)


def _serve_workers(args: argparse.Namespace, spec: str | None, redis_url: str | None) -> int:
    import os
    import tempfile

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from .settings import Settings

    if redis_url is None:
        # Each worker would keep its runs to itself: resume and Stop would fail whenever
        # a request reached another worker than the one answering.
        raise _Failure(
            f"--workers {args.workers} needs REDIS_URL: several workers share their "
            "answers' events, Stop and ownership through Redis. Set REDIS_URL, or run "
            "one worker."
        )
    if spec:
        os.environ["PAGECHAT_APP"] = spec
    # Metrics of every worker on this host, summed at /metrics (prometheus_client's way).
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="pagechat-metrics-"))
    config = uvicorn.Config(
        "pagechat.cli:app_factory",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="info",
        **_limits(Settings()),
    )
    with contextlib.suppress(KeyboardInterrupt):
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    return 0


def _cmd_mcp_serve(args: argparse.Namespace) -> int:
    from .extras import require_extra

    require_extra("mcp", "pagechat mcp serve")
    from .mcp.server import McpUserNotFound, serve_app_tools
    from .settings import Settings

    app = _load_app(_app_spec(args.app, Settings().app))
    try:
        asyncio.run(serve_app_tools(app, user_email=args.user))
    except McpUserNotFound as exc:
        raise _Failure(str(exc)) from None
    return 0


async def _export_feedback(database_url: str, out: Any) -> int:
    from .store.db import create_engine, create_sessionmaker
    from .store.feedback import export_feedback

    engine = create_engine(database_url)
    count = 0
    try:
        async with create_sessionmaker(engine)() as session:
            async for record in export_feedback(session=session):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
    finally:
        await engine.dispose()
    return count


async def _usage_report(database_url: str, args: argparse.Namespace) -> str:
    from dataclasses import asdict

    from .store.db import create_engine, create_sessionmaker
    from .store.usage import usage_csv, usage_report

    engine = create_engine(database_url)
    try:
        async with create_sessionmaker(engine)() as session:
            rows = await usage_report(
                session=session, by=args.by, since=args.since, until=args.until
            )
    finally:
        await engine.dispose()
    if args.format == "csv":
        return usage_csv(rows, args.by)
    return json.dumps([asdict(r) for r in rows], indent=2) + "\n"


def _cmd_usage(args: argparse.Namespace) -> int:
    from .settings import Settings

    sys.stdout.write(asyncio.run(_usage_report(Settings().database_url, args)))
    return 0


def _groupings(value: str) -> list[str]:
    from .store.usage import GROUPINGS

    groups = [g.strip() for g in value.split(",") if g.strip()]
    if not groups or any(g not in GROUPINGS for g in groups):
        raise argparse.ArgumentTypeError(f"a comma-separated list of {', '.join(GROUPINGS)}")
    return groups


def _cmd_feedback_export(args: argparse.Namespace) -> int:
    from .settings import Settings

    settings = Settings()
    if args.output == "-":
        count = asyncio.run(_export_feedback(settings.database_url, sys.stdout))
    else:
        with Path(args.output).open("w", encoding="utf-8") as out:
            count = asyncio.run(_export_feedback(settings.database_url, out))
    print(f"Exported {count} feedback records", file=sys.stderr)
    return 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    from .doctor import Check, Diagnosis, check_database, check_redis, diagnose
    from .settings import Settings

    settings = Settings()

    async def _all() -> tuple[Diagnosis, list[Check]]:
        model, database, redis = await asyncio.gather(
            diagnose(settings, wait_seconds=args.timeout),
            check_database(settings, wait_seconds=args.timeout),
            check_redis(settings, wait_seconds=args.timeout),
        )
        return model, [database, redis]

    diagnosis, checks = asyncio.run(_all())
    print("\n".join([*diagnosis.lines(), *(c.line() for c in checks)]))
    return 0 if diagnosis.ok and all(c.ok for c in checks) else 1


_APP_HELP = "the application, module:factory (default: PAGECHAT_APP)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pagechat", description="pagechat: page-aware LLM chat")
    sub = parser.add_subparsers(dest="command", required=True)

    schema = sub.add_parser("schema", help="print the wire contract's JSON Schema")
    schema.set_defaults(func=_cmd_schema)

    new = sub.add_parser("new", help="scaffold a new app's project in the folder NAME")
    new.add_argument("name", metavar="NAME", help="the project's name (its package: lower_case)")
    new.add_argument("--directory", default=".", help="where to create it (default: here)")
    new.set_defaults(func=_cmd_new)

    serve = sub.add_parser("serve", help="run the server (migrations are applied first)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--app", help=_APP_HELP)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes (more than one needs REDIS_URL)",
    )
    serve.set_defaults(func=_cmd_serve)

    mcp = sub.add_parser("mcp", help="pagechat and the Model Context Protocol")
    mcp_sub = mcp.add_subparsers(dest="mcp_command", required=True)
    mcp_serve = mcp_sub.add_parser(
        "serve", help="serve the app's global tools to an MCP client over stdio"
    )
    mcp_serve.add_argument("--app", help=_APP_HELP)
    mcp_serve.add_argument("--user", help="the account tool calls act as (email)")
    mcp_serve.set_defaults(func=_cmd_mcp_serve)

    doctor = sub.add_parser("doctor", help="show the active provider and model, check it answers")
    doctor.add_argument("--timeout", type=float, default=30.0)
    doctor.set_defaults(func=_cmd_doctor)

    db = sub.add_parser("db", help="database maintenance (DATABASE_URL)")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    upgrade = db_sub.add_parser("upgrade", help="apply migrations")
    upgrade.add_argument("--app", help=_APP_HELP)
    upgrade.set_defaults(func=_cmd_db_upgrade)

    users = sub.add_parser("users", help="accounts")
    users_sub = users.add_subparsers(dest="users_command", required=True)
    create = users_sub.add_parser("create", help="add an account")
    create.add_argument("email")
    create.add_argument("--password", help="prompted for (twice) when not given")
    create.add_argument("--admin", action="store_true", help="make the account an admin")
    create.add_argument("--app", help=_APP_HELP)
    create.set_defaults(func=_cmd_users_create)
    demo = users_sub.add_parser(
        "ensure-demo", help="make sure the demo account exists, and print it"
    )
    demo.add_argument("--app", help=_APP_HELP)
    demo.set_defaults(func=_cmd_users_ensure_demo)
    disable = users_sub.add_parser(
        "disable",
        help="turn an account off: no login, every session ended, its running answers stopped",
    )
    disable.add_argument("email")
    disable.add_argument("--app", help=_APP_HELP)
    disable.set_defaults(func=_cmd_users_disable)
    enable = users_sub.add_parser("enable", help="let a disabled account sign in again")
    enable.add_argument("email")
    enable.add_argument("--app", help=_APP_HELP)
    enable.set_defaults(func=_cmd_users_enable)

    keys = sub.add_parser("api-keys", help="named API keys for programs (stored hashed)")
    keys_sub = keys.add_subparsers(dest="api_keys_command", required=True)
    key_create = keys_sub.add_parser(
        "create", help="make a key for EMAIL named NAME and print it (shown this once)"
    )
    key_create.add_argument("email")
    key_create.add_argument("name")
    key_list = keys_sub.add_parser("list", help="an account's keys (never the keys themselves)")
    key_list.add_argument("email")
    key_revoke = keys_sub.add_parser("revoke", help="revoke the key KEY_ID: it stops working")
    key_revoke.add_argument("key_id")
    for command in (key_create, key_list, key_revoke):
        command.add_argument("--app", help=_APP_HELP)
        command.set_defaults(func=_cmd_api_keys)

    usage = sub.add_parser(
        "usage",
        help="tokens the answers and title calls used, by user, model and UTC day, with "
        "prompt-cache tokens apart (reads the database directly)",
    )
    usage.add_argument(
        "--by",
        type=_groupings,
        default=["user", "model", "day"],
        help="what to group by: user,model,day,purpose (default: user,model,day)",
    )
    usage.add_argument("--since", type=date.fromisoformat, help="first day, YYYY-MM-DD")
    usage.add_argument("--until", type=date.fromisoformat, help="last day, YYYY-MM-DD")
    usage.add_argument("--format", choices=("csv", "json"), default="csv")
    usage.set_defaults(func=_cmd_usage)

    feedback = sub.add_parser("feedback", help="users' thumbs on answers")
    feedback_sub = feedback.add_subparsers(dest="feedback_command", required=True)
    export = feedback_sub.add_parser(
        "export",
        help="write every feedback record as JSONL: rating, comment, user, the conversation "
        "up to that answer, the page context, the tools used, the model (an operator's tool: "
        "it reads the database directly)",
    )
    export.add_argument("--output", "-o", default="-", help="a file (default: standard output)")
    export.set_defaults(func=_cmd_feedback_export)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The `pagechat` command line; returns the exit code."""
    from .auth.tokens import WeakSecret
    from .extras import MissingExtra
    from .mcp.config import McpConfigError

    args = _parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except _Failure as exc:
        print(f"pagechat: error: {exc}", file=sys.stderr)
        return 1
    except (McpConfigError, MissingExtra) as exc:
        print(f"pagechat: error: {exc}", file=sys.stderr)
        return 1
    except WeakSecret as exc:
        print(f"pagechat: error: {exc}", file=sys.stderr)
        return 1
    except (SQLAlchemyError, OSError) as exc:
        print(f"pagechat: error: database unavailable: {exc}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    raise SystemExit(main())
