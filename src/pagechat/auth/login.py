"""Password login, as the login route sees it."""

from __future__ import annotations

import abc

__all__ = ["InvalidCredentials", "LoginThrottled", "PasswordLogin"]


class InvalidCredentials(Exception):
    """Unknown email or wrong password (deliberately not told apart)."""


class LoginThrottled(Exception):
    """Too many failed attempts for this email from this address."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many login attempts; retry in {retry_after} s")
        self.retry_after = retry_after


class PasswordLogin(abc.ABC):
    """An authenticator that can also exchange an email and password for a token."""

    @abc.abstractmethod
    async def login(self, *, email: str, password: str, client: str) -> str:
        """A new access token. Raises InvalidCredentials or LoginThrottled.

        `client` identifies where the attempt comes from (the remote address).
        """
