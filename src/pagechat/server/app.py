"""The FastAPI application factory."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..attachments import (
    AttachmentNotFound,
    Attachments,
    DatabaseStorage,
    FileStorage,
    InlineRefused,
    TooManyAttachments,
)
from ..auth.authenticator import JwtAuthenticator
from ..auth.limits import LoginLimiter, LoginLimits
from ..auth.secret import resolve_secret
from ..auth.session_cache import SessionCache
from ..chat import ChatConfig, ChatService
from ..chat.approvals import ApprovalPending
from ..chat.service import ModelSource
from ..extras import has_extra, require_extra
from ..identity import Authenticator
from ..mcp import McpServer, load_mcp_config
from ..metrics import count_database_errors
from ..models.base import Model
from ..models.factory import model_from_settings
from ..models.redact import install_log_redaction
from ..pages import UnknownPage
from ..quotas import MemoryQuotas, QuotaExceeded, Quotas
from ..redis_client import RedisClient, connect_redis
from ..runs import Draining, RunManager, RunsUnavailable
from ..settings import Settings, get_settings
from ..store.base import ChatStore
from ..store.db import create_engine, create_point_reader, create_sessionmaker, display_url
from ..store.migrate import upgrade_async
from ..store.tables import utcnow
from .disabled import stopping_disabled_runs
from .headers import SecurityHeaders
from .limits import BodySizeLimit
from .passthrough import BodyPassThrough
from .routes import (
    actions,
    admin_sessions,
    agui_missing,
    ai_sdk,
    api_keys,
    approvals,
    auth,
    branches,
    chat,
    conversation_search,
    conversations,
    health,
    metrics,
    pages,
    payload_types,
    usage,
)
from .routes import attachments as attachments_route
from .static import SpaStaticFiles

if TYPE_CHECKING:
    from opentelemetry.trace import Tracer

    from ..mcp.tools import McpTools

__all__ = ["StartupHook", "create_app", "create_app_from_settings"]

Hook = Callable[[], Awaitable[None]]
StartupHook = Callable[[async_sessionmaker[AsyncSession]], Awaitable[None]]
"""An application's start-up work (seed data, say), run after the migrations."""

logger = logging.getLogger(__name__)


def create_app(
    *,
    model: ModelSource,
    store: ChatStore,
    authenticator: Authenticator,
    config: ChatConfig | None = None,
    runs: RunManager | None = None,
    cancel_on_disconnect: bool = False,
    static_dir: Path | None = None,
    max_body_bytes: int = 256 * 1024,
    on_startup: Sequence[Hook] = (),
    on_shutdown: Sequence[Hook] = (),
    routers: Sequence[APIRouter] = (),
    sessions: async_sessionmaker[AsyncSession] | None = None,
    metrics_token: str | None = None,
    tracer: Tracer | None = None,
    quotas: Quotas | None = None,
    api_docs: bool = False,
    attachments: Attachments | None = None,
) -> FastAPI:
    """Build the app. Everything it needs is passed in, so tests can wire real parts freely.

    `routers` are an application's own routes (mounted before the web UI).
    `sessions` gives tools (`ToolContext.session`), server actions and `SessionDep`
    routes a database session.

    `metrics_token` lets a Prometheus scraper read `/metrics` (admins always can);
    `tracer` (see `pagechat.tracing`) traces every answer; `quotas` limits each
    user's turns (none: unlimited). `api_docs` serves FastAPI's generated docs at
    `/docs` and `/openapi.json`, with no token: for development only (`PAGECHAT_ENV`).

    `on_startup` hooks run, in order, before the first request; `on_shutdown` hooks
    after the live runs have been stopped (and stored).

    `attachments` stores uploaded files; none: with `sessions`, in the database (the
    quotas' limits, no retention), else uploads answer 503.
    """
    run_manager = runs or RunManager()
    if attachments is None and sessions is not None:
        attachments = Attachments(
            sessions=sessions,
            storage=DatabaseStorage(sessions),
            quotas=quotas.settings if quotas is not None else None,
        )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await run_manager.open()
        try:
            for hook in on_startup:
                await hook()
            # After the hooks: they apply the migrations the sweep's table comes from.
            app.state.chat.open()
            async with contextlib.AsyncExitStack() as stack:
                if attachments is not None:
                    await stack.enter_async_context(attachments.sweeping())
                if sessions is not None:
                    await stack.enter_async_context(stopping_disabled_runs(run_manager, sessions))
                yield
        finally:
            await run_manager.shutdown()
            await app.state.chat.aclose()
            await app.state.chat.store.aclose()
            if quotas is not None:
                await quotas.aclose()
            for hook in on_shutdown:
                await hook()

    # Generated docs only in development: every route but login and health needs a token
    # (DESIGN §3), and the docs would tell a stranger every route there is.
    app = FastAPI(
        title="pagechat",
        version="0.1.0",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if api_docs else None,
    )
    app.state.runs = run_manager
    app.state.chat = ChatService(
        model=model,
        store=store,
        runs=run_manager,
        config=config,
        sessions=sessions,
        tracer=tracer,
        quotas=quotas,
        attachments=attachments,
    )
    app.state.attachments = attachments
    app.state.sessions = sessions
    app.state.authenticator = authenticator
    app.state.cancel_on_disconnect = cancel_on_disconnect
    app.state.metrics_token = metrics_token
    # An upload's body is bounded by its route, at the user's file limit, as it streams.
    app.add_middleware(
        BodySizeLimit, max_bytes=max_body_bytes, exempt=(attachments_route.UPLOAD_PATH,)
    )
    app.add_middleware(SecurityHeaders)
    # Outside pagechat's own middleware, inside any the app adds later (passthrough.py).
    app.add_middleware(BodyPassThrough)

    @app.exception_handler(Draining)
    async def _draining(request: Request, exc: Draining) -> JSONResponse:
        # A load balancer retries elsewhere; a client tries again in a moment.
        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "1"})

    @app.exception_handler(ApprovalPending)
    async def _approval_pending(request: Request, exc: ApprovalPending) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @app.exception_handler(QuotaExceeded)
    async def _over_quota(request: Request, exc: QuotaExceeded) -> JSONResponse:
        body = {"detail": exc.message, "quota": exc.quota, "limit": exc.limit}
        if exc.quota == "message_chars":  # waiting will not help: the message must change
            return JSONResponse(body, status_code=422)
        return JSONResponse(
            body | {"retry_after": exc.retry_after},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(AttachmentNotFound)
    async def _no_attachment(request: Request, exc: AttachmentNotFound) -> JSONResponse:
        # Another user's file and a missing one answer alike.
        return JSONResponse({"detail": "Attachment not found"}, status_code=404)

    @app.exception_handler(InlineRefused)
    async def _inline_refused(request: Request, exc: InlineRefused) -> JSONResponse:
        # A file inside an AG-UI or AI SDK message: the upload route's answers.
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(TooManyAttachments)
    async def _too_many(request: Request, exc: TooManyAttachments) -> JSONResponse:
        detail = str(exc) if exc.limit else "This app takes no attachments."
        return JSONResponse({"detail": detail, "limit": exc.limit}, status_code=422)

    @app.exception_handler(UnknownPage)
    async def _unknown_page(request: Request, exc: UnknownPage) -> JSONResponse:
        # Loud, not a fallback: a misspelt page would otherwise chat without its tools.
        logger.warning("%s %s: %s", request.method, request.url.path, exc)
        return JSONResponse(
            {"detail": str(exc), "page": exc.page[:100], "known_pages": list(exc.known)},
            status_code=400,
        )

    @app.exception_handler(RunsUnavailable)
    async def _unavailable(request: Request, exc: RunsUnavailable) -> JSONResponse:
        logger.warning("runs unavailable: %s", exc)
        return JSONResponse(
            {"detail": "Answers are unavailable for a moment. Please try again."},
            status_code=503,
            headers={"Retry-After": "2"},
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # pydantic's errors may hold the raw input (bytes of bad UTF-8, say): keep it printable.
        errors = [
            {
                "loc": list(e.get("loc", ())),
                "msg": str(e.get("msg", "")),
                "type": str(e.get("type", "")),
            }
            for e in exc.errors()
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    app.include_router(health.router)
    app.include_router(auth.router)
    app.include_router(api_keys.router)
    app.include_router(admin_sessions.router)
    app.include_router(chat.router)
    app.include_router(approvals.router)
    if has_extra("agui"):
        from .routes import agui

        app.include_router(agui.router)
    else:
        app.include_router(agui_missing.router)
    app.include_router(ai_sdk.router)
    app.include_router(actions.router)
    app.include_router(conversation_search.router)
    app.include_router(conversations.router)
    app.include_router(pages.router)
    app.include_router(payload_types.router)
    app.include_router(branches.router)
    app.include_router(metrics.router)
    app.include_router(usage.router)
    app.include_router(attachments_route.router)
    for router in routers:
        app.include_router(router)
    if static_dir is not None and static_dir.is_dir():
        app.mount("/", SpaStaticFiles(directory=str(static_dir)), name="web")
    return app


def _web_dir(settings: Settings) -> Path | None:
    """`PAGECHAT_WEB_DIR`, else the UI built into the package (`make web`; the wheel's)."""
    if settings.web_dir is not None:
        return settings.web_dir
    packaged = Path(str(files("pagechat") / "web"))
    return packaged if (packaged / "index.html").is_file() else None


def _redis(settings: Settings) -> RedisClient | None:
    """The client of `REDIS_URL` (a cluster's with `PAGECHAT_REDIS_CLUSTER`), or None when
    it is not set (one process, in memory)."""
    if settings.redis_url is None:
        return None
    return connect_redis(settings.redis_url, cluster=settings.redis_cluster)


def _login_limiter(settings: Settings) -> LoginLimits:
    """In memory for one process; in Redis for several, so they share the counts."""
    attempts, window = settings.login_max_attempts, settings.login_window_seconds
    redis = _redis(settings)
    if redis is None:
        return LoginLimiter(max_attempts=attempts, window_seconds=window)
    from ..auth.limits import RedisLoginLimiter

    return RedisLoginLimiter(redis, max_attempts=attempts, window_seconds=window)


def _quotas(settings: Settings) -> Quotas:
    redis = _redis(settings)
    if redis is None:
        return MemoryQuotas(settings.quotas)
    from ..quotas import RedisQuotas

    return RedisQuotas(redis, settings.quotas)


def _tracer(settings: Settings) -> Tracer | None:
    if not settings.otel_tracing:
        return None
    require_extra("otel", "PAGECHAT_OTEL_TRACING")
    from ..tracing import configure_tracing

    return configure_tracing()


def _run_manager(settings: Settings, store: ChatStore) -> RunManager:
    """In memory for one process; in Redis when `REDIS_URL` is set (several workers)."""
    redis = _redis(settings)
    if redis is None:
        return RunManager(drain_seconds=settings.drain_seconds)
    from ..runs.redis import RedisRunManager

    async def interrupted(run_ids: list[str]) -> None:
        await store.mark_interrupted(run_ids=run_ids)

    return RedisRunManager(
        redis,
        retain_seconds=settings.run_log_ttl_seconds,
        drain_seconds=settings.drain_seconds,
        lease_seconds=settings.run_lease_seconds,
        max_events=settings.run_log_max_events,
        on_interrupted=interrupted,
        max_takeovers=settings.run_max_takeovers,
    )


def _mcp_tools(servers: Sequence[McpServer]) -> McpTools | None:
    if not servers:
        return None
    require_extra("mcp", "MCP servers (PAGECHAT_MCP_CONFIG)")
    from ..mcp.tools import McpTools

    return McpTools(servers)


def create_app_from_settings(
    settings: Settings | None = None,
    *,
    model: ModelSource | None = None,
    version_locations: Sequence[Path] = (),
    routers: Sequence[APIRouter] = (),
    on_startup: Sequence[StartupHook] = (),
    offline_model: Callable[[], Model] | None = None,
    mcp_servers: Sequence[McpServer] = (),
) -> FastAPI:
    """The app as `pagechat serve` runs it: SQL store, JWT accounts, migrations at startup.

    At startup the database is migrated (pagechat's history plus an application's
    `version_locations`), answers left `running` by a previous process are marked
    `interrupted`, then the application's `on_startup` hooks run. `model` defaults
    to the one the settings select; with no API key that is `offline_model()`.
    The tools of `mcp_servers`, and of those `PAGECHAT_MCP_CONFIG` lists, join the
    tool registry at startup; their sessions close at shutdown.
    """
    settings = settings or get_settings()
    engine = create_engine(settings.database_url)
    count_database_errors(engine)
    sessions = create_sessionmaker(engine)
    store = ChatStore(sessions)
    reader = create_point_reader(settings.database_url)
    redis = _redis(settings)
    # With Redis, every worker sees a session end at once (auth/session_cache.py).
    cache = SessionCache(redis) if redis is not None else None
    authenticator = JwtAuthenticator(
        sessions=sessions,
        reader=reader,
        cache=cache,
        secret=resolve_secret(secret=settings.secret, state_dir=settings.state_dir),
        token_ttl=timedelta(minutes=settings.token_ttl_minutes),
        limiter=_login_limiter(settings),
    )

    servers = [*mcp_servers, *(load_mcp_config(settings.mcp_config) if settings.mcp_config else ())]
    mcp = _mcp_tools(servers)

    runs = _run_manager(settings, store)

    async def prepare_database() -> None:
        # Here, in each worker once the server has set up its logging: keys never reach a log.
        install_log_redaction(
            [settings.anthropic_api_key, settings.openai_api_key, settings.secret]
        )
        await upgrade_async(engine, version_locations=version_locations)
        live_run_ids = getattr(runs, "live_run_ids", None)
        if live_run_ids is not None:  # a RedisRunManager
            # Other workers may be answering: spare their runs, and turns that are
            # just starting (stored, not yet in Redis).
            interrupted = await store.mark_interrupted(
                keep_run_ids=await live_run_ids(),
                created_before=utcnow() - timedelta(seconds=60),
            )
        else:
            interrupted = await store.mark_interrupted()
        if interrupted:
            logger.warning("marked %d unfinished answers as interrupted", interrupted)
        logger.info("database ready at %s", display_url(settings.database_url))
        for hook in on_startup:
            await hook(sessions)
        if mcp is not None:
            await mcp.start()

    chosen = model if model is not None else model_from_settings(settings, offline=offline_model)

    async def close_database() -> None:
        if mcp is not None:
            await mcp.aclose()
        if model is None and isinstance(chosen, Model):
            await chosen.aclose()  # made here, so closed here: its HTTP connections
        await engine.dispose()
        if reader is not None:
            reader.dispose()
        if cache is not None:
            await cache.aclose()

    return create_app(
        model=chosen,
        store=store,
        authenticator=authenticator,
        config=ChatConfig(
            max_iterations=settings.max_iterations,
            max_tokens=settings.max_tokens,
            temperature=settings.temperature,
            history_budget=settings.history_budget,
            checkpoint_seconds=settings.checkpoint_seconds,
            approval_timeout_seconds=settings.approval_timeout_seconds,
            model_titles=settings.model_titles,
        ),
        runs=runs,
        cancel_on_disconnect=settings.cancel_on_disconnect,
        static_dir=_web_dir(settings),
        on_startup=[prepare_database],
        on_shutdown=[close_database],
        routers=routers,
        sessions=sessions,
        metrics_token=settings.metrics_token,
        tracer=_tracer(settings),
        quotas=_quotas(settings),
        api_docs=settings.env == "development",
        attachments=Attachments(
            sessions=sessions,
            storage=_attachment_storage(settings, sessions),
            quotas=settings.quotas,
            retention_days=settings.attachments_retention_days,
        ),
    )


def _attachment_storage(
    settings: Settings, sessions: async_sessionmaker[AsyncSession]
) -> FileStorage | DatabaseStorage:
    """`PAGECHAT_ATTACHMENTS_STORAGE`: a folder (default) or the database."""
    if settings.attachments_storage == "database":
        return DatabaseStorage(sessions)
    return FileStorage(settings.attachments_dir or settings.state_dir / "attachments")
