"""Who is asking: the authenticated user as the rest of pagechat sees them, and what
turns a token into one.

`Authenticator` lives here, below both the HTTP layer that asks it and the account
code (`pagechat.auth`) that implements it, so neither has to import the other.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

__all__ = ["Authenticator", "Principal", "StaticTokens"]


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request is made by: the user's id, email and whether they are an admin."""

    id: str
    email: str
    is_admin: bool = False


class Authenticator(abc.ABC):
    """Turns a bearer token into a user, or None when the token is not valid."""

    @abc.abstractmethod
    async def authenticate(self, token: str) -> Principal | None:
        """The principal a bearer token stands for; None for a token that is not valid."""


class StaticTokens(Authenticator):
    """Fixed tokens, for tests and for embedding pagechat behind another auth layer."""

    def __init__(self, tokens: dict[str, Principal]) -> None:
        self._tokens = dict(tokens)

    async def authenticate(self, token: str) -> Principal | None:
        return self._tokens.get(token)
