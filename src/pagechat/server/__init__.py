"""The HTTP layer: app factory, dependencies, routes."""

from .app import create_app
from .deps import Authenticator, ChatServiceDep, CurrentUser, RunsDep, StaticTokens, current_user

__all__ = [
    "Authenticator",
    "ChatServiceDep",
    "CurrentUser",
    "RunsDep",
    "StaticTokens",
    "create_app",
    "current_user",
]
