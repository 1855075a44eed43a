"""The HTTP layer: app factory, dependencies, routes."""

from ..chat import ModelSource
from .app import StartupHook, create_app, create_app_from_settings
from .deps import (
    Authenticator,
    ChatServiceDep,
    CurrentUser,
    OptionalSessionDep,
    RunsDep,
    SessionDep,
    StaticTokens,
    current_user,
)

__all__ = [
    "Authenticator",
    "ChatServiceDep",
    "CurrentUser",
    "ModelSource",
    "OptionalSessionDep",
    "RunsDep",
    "SessionDep",
    "StartupHook",
    "StaticTokens",
    "create_app",
    "create_app_from_settings",
    "current_user",
]
