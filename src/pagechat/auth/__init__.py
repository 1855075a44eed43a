"""Accounts and bearer tokens: argon2 passwords, HS256 JWTs, login throttling."""

from .accounts import DEMO_EMAIL, DEMO_PASSWORD, InvalidEmail, create_account, ensure_account
from .authenticator import JwtAuthenticator
from .limits import LoginLimiter, LoginLimits, RedisLoginLimiter
from .login import InvalidCredentials, LoginThrottled, PasswordLogin
from .passwords import hash_password, verify_password
from .policy import WeakPassword, check_password
from .secret import resolve_secret
from .tokens import WeakSecret, create_access_token, read_access_token

__all__ = [
    "DEMO_EMAIL",
    "DEMO_PASSWORD",
    "InvalidCredentials",
    "InvalidEmail",
    "JwtAuthenticator",
    "LoginLimiter",
    "LoginLimits",
    "LoginThrottled",
    "PasswordLogin",
    "RedisLoginLimiter",
    "WeakPassword",
    "WeakSecret",
    "check_password",
    "create_access_token",
    "create_account",
    "ensure_account",
    "hash_password",
    "read_access_token",
    "resolve_secret",
    "verify_password",
]
