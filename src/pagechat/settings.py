"""Settings from the environment (and a `.env` file), in one place."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from . import defaults
from .quotas import QuotaSettings

__all__ = ["Environment", "ProviderName", "Settings", "get_settings"]

ProviderName = Literal["anthropic", "openai", "offline"]
Environment = Literal["development", "production"]


class Settings(BaseSettings):
    """The server's configuration, read from the environment and `.env`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    env: Environment = Field(default="production", alias="PAGECHAT_ENV")
    """`development` serves the generated API docs (`/docs`, `/openapi.json`) to anyone
    who reaches the server; `production` (the default, so a deployment that forgets it is
    safe) serves none."""
    database_url: str = Field(default="sqlite+aiosqlite:///./pagechat.db", alias="DATABASE_URL")
    redis_url: str | None = Field(default=None, alias="REDIS_URL")
    """Shared run logs, cancels and quotas for several workers; unset: one process, in memory."""
    redis_cluster: bool = Field(default=False, alias="PAGECHAT_REDIS_CLUSTER")
    """`REDIS_URL` names a node of a Redis Cluster: runs, Stop and quotas go through the
    cluster client (each run's keys on one slot; a flush writes once per shard)."""
    run_log_ttl_seconds: float = Field(
        default=defaults.RUN_LOG_TTL_SECONDS, alias="PAGECHAT_RUN_LOG_TTL_SECONDS"
    )
    """How long a finished answer's events stay readable (resume) in Redis."""
    run_log_max_events: int = Field(
        default=defaults.RUN_LOG_MAX_EVENTS, alias="PAGECHAT_RUN_LOG_MAX_EVENTS"
    )
    """Length cap of one run's Redis stream."""
    run_lease_seconds: float = Field(
        default=defaults.RUN_LEASE_SECONDS, alias="PAGECHAT_RUN_LEASE_SECONDS"
    )
    """A worker that stops renewing its answers' lease for this long is taken for dead; its
    answers are taken over by another worker within about 4/3 of it, and go on there."""
    run_max_takeovers: int = Field(
        default=defaults.MAX_TAKEOVERS, ge=0, alias="PAGECHAT_RUN_MAX_TAKEOVERS"
    )
    """How often one answer may be taken over before it ends with an error instead."""
    quotas: QuotaSettings = Field(default_factory=QuotaSettings, alias="PAGECHAT_QUOTAS")
    """Per-role limits (JSON): answers at once, turns a minute, tokens a day, message length."""
    max_header_bytes: int = Field(
        default=defaults.MAX_HEADER_BYTES, alias="PAGECHAT_MAX_HEADER_BYTES"
    )
    """A request's line and headers together; more is answered 431 (`pagechat serve`)."""
    header_timeout_seconds: float = Field(
        default=defaults.HEADER_TIMEOUT_SECONDS, alias="PAGECHAT_HEADER_TIMEOUT_SECONDS"
    )
    """Time to send a request's headers (from its first byte, or the connection); then 408."""
    body_timeout_seconds: float = Field(
        default=defaults.BODY_TIMEOUT_SECONDS, alias="PAGECHAT_BODY_TIMEOUT_SECONDS"
    )
    """Longest pause while sending a request body; then the connection is closed."""
    keepalive_seconds: int = Field(default=5, alias="PAGECHAT_KEEPALIVE_SECONDS")
    max_connections: int = Field(default=2048, alias="PAGECHAT_MAX_CONNECTIONS")
    """Open connections (each streaming answer holds one) per worker; more are answered 503."""
    trusted_proxies: str = Field(default="", alias="PAGECHAT_TRUSTED_PROXIES")
    """Comma-separated addresses or networks of the reverse proxies whose X-Forwarded-For
    and X-Forwarded-Proto are believed; empty (the default): none, not even loopback."""
    drain_seconds: float = Field(default=defaults.DRAIN_SECONDS, alias="PAGECHAT_DRAIN_SECONDS")
    """On SIGTERM, how long running answers may finish before they are ended."""
    secret: str | None = Field(default=None, alias="PAGECHAT_SECRET")
    """JWT signing key. Unset in development: one is generated and kept in `state_dir`."""
    state_dir: Path = Field(default=Path(".pagechat"), alias="PAGECHAT_STATE_DIR")
    attachments_storage: Literal["files", "database"] = Field(
        default="files", alias="PAGECHAT_ATTACHMENTS_STORAGE"
    )
    """Where uploaded files' bytes live: `files` (a folder, one host) or `database` (the
    database, for several hosts that share no folder)."""
    attachments_dir: Path | None = Field(default=None, alias="PAGECHAT_ATTACHMENTS_DIR")
    """The folder of `files` storage; unset: `attachments` in `PAGECHAT_STATE_DIR`."""
    attachments_retention_days: int | None = Field(
        default=None, ge=1, alias="PAGECHAT_ATTACHMENTS_RETENTION_DAYS"
    )
    """Attachments older than this many days are deleted (hourly sweep); unset: kept
    until their conversation is deleted."""
    token_ttl_minutes: int = Field(
        default=defaults.TOKEN_TTL_MINUTES, alias="PAGECHAT_TOKEN_TTL_MINUTES"
    )
    login_max_attempts: int = Field(
        default=defaults.LOGIN_MAX_ATTEMPTS, alias="PAGECHAT_LOGIN_MAX_ATTEMPTS"
    )
    """Failed logins allowed per email and client address within `login_window_seconds`."""
    login_window_seconds: float = Field(
        default=defaults.LOGIN_WINDOW_SECONDS, alias="PAGECHAT_LOGIN_WINDOW_SECONDS"
    )

    provider: ProviderName | None = Field(default=None, alias="PAGECHAT_PROVIDER")
    model: str | None = Field(default=None, alias="PAGECHAT_MODEL")
    max_tokens: int = Field(default=defaults.MAX_TOKENS, alias="PAGECHAT_MAX_TOKENS")
    temperature: float | None = Field(default=None, alias="PAGECHAT_TEMPERATURE")
    thinking_budget: int | None = Field(default=None, ge=1024, alias="PAGECHAT_THINKING_BUDGET")
    """Anthropic extended thinking's budget in tokens (at least 1024); unset: no thinking."""
    model_images: bool = Field(default=True, alias="PAGECHAT_MODEL_IMAGES")
    """Whether the model reads images (false: a text-only model reads a notice instead)."""
    max_iterations: int = Field(default=defaults.MAX_ITERATIONS, alias="PAGECHAT_MAX_ITERATIONS")
    history_budget: int = Field(default=defaults.HISTORY_BUDGET, alias="PAGECHAT_HISTORY_BUDGET")
    checkpoint_seconds: float = Field(
        default=defaults.CHECKPOINT_SECONDS, alias="PAGECHAT_CHECKPOINT_SECONDS"
    )
    """How often running answers are saved, so a killed server keeps them (0: never)."""
    approval_timeout_seconds: float = Field(
        default=defaults.APPROVAL_TIMEOUT_SECONDS, gt=0, alias="PAGECHAT_APPROVAL_TIMEOUT_SECONDS"
    )
    """How long a tool call waits for the user's approval before it counts as denied."""
    anthropic_api_key: str | None = Field(default=None, alias="ANTHROPIC_API_KEY")
    anthropic_base_url: str | None = Field(default=None, alias="ANTHROPIC_BASE_URL")
    openai_api_key: str | None = Field(default=None, alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")

    app: str | None = Field(default=None, alias="PAGECHAT_APP")
    """The application `pagechat serve` runs, as `module:factory` (`horizon.app:create_app`)."""
    cancel_on_disconnect: bool = Field(default=False, alias="PAGECHAT_CANCEL_ON_DISCONNECT")
    model_titles: bool = Field(default=True, alias="PAGECHAT_MODEL_TITLES")
    """The model titles a new conversation after its first answer (false: its first message)."""
    metrics_token: str | None = Field(default=None, alias="PAGECHAT_METRICS_TOKEN")
    """Bearer token a Prometheus scraper sends to read `/metrics` (admins need none)."""
    otel_tracing: bool = Field(default=False, alias="PAGECHAT_OTEL_TRACING")
    """OpenTelemetry traces of answers over OTLP/HTTP (`OTEL_EXPORTER_OTLP_*` configure it)."""
    mcp_config: Path | None = Field(default=None, alias="PAGECHAT_MCP_CONFIG")
    """A JSON file of MCP servers whose tools the assistant may use (`{"mcpServers": ...}`)."""
    web_dir: Path | None = Field(default=None, alias="PAGECHAT_WEB_DIR")
    """Built web UI to serve at `/` (default: the UI packaged with pagechat, `pagechat/web`)."""

    @property
    def active_provider(self) -> ProviderName:
        """The configured provider, else the first whose key is set, else `offline`."""
        if self.provider is not None:
            return self.provider
        if self.anthropic_api_key:
            return "anthropic"
        if self.openai_api_key or self.openai_base_url:
            return "openai"
        return "offline"


@lru_cache
def get_settings() -> Settings:
    return Settings()
