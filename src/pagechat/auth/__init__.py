"""Accounts and bearer tokens: argon2 passwords, server-side sessions named by HS256 JWTs,
hashed API keys, login throttling."""

from .accounts import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    InvalidEmail,
    NoSuchAccount,
    create_account,
    disable_account,
    enable_account,
    ensure_account,
)
from .api_keys import API_KEY_PREFIX, NewApiKey, create_api_key, hash_api_key
from .authenticator import JwtAuthenticator
from .limits import LoginLimiter, LoginLimits, RedisLoginLimiter
from .login import AccountDisabled, InvalidCredentials, LoginThrottled, PasswordLogin
from .passwords import hash_password, verify_password
from .policy import WeakPassword, check_password
from .secret import resolve_secret
from .session_cache import SessionCache
from .sessions import SessionRegistry
from .tokens import WeakSecret, create_access_token, read_access_token

__all__ = [
    "API_KEY_PREFIX",
    "DEMO_EMAIL",
    "DEMO_PASSWORD",
    "AccountDisabled",
    "InvalidCredentials",
    "InvalidEmail",
    "JwtAuthenticator",
    "LoginLimiter",
    "LoginLimits",
    "LoginThrottled",
    "NewApiKey",
    "NoSuchAccount",
    "PasswordLogin",
    "RedisLoginLimiter",
    "SessionCache",
    "SessionRegistry",
    "WeakPassword",
    "WeakSecret",
    "check_password",
    "create_access_token",
    "create_account",
    "create_api_key",
    "disable_account",
    "enable_account",
    "ensure_account",
    "hash_api_key",
    "hash_password",
    "read_access_token",
    "resolve_secret",
    "verify_password",
]
