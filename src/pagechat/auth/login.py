"""Password login, as the login route sees it."""

from __future__ import annotations

import abc

__all__ = ["AccountDisabled", "InvalidCredentials", "LoginThrottled", "PasswordLogin"]


class InvalidCredentials(Exception):
    """Unknown email or wrong password (deliberately not told apart)."""


class AccountDisabled(Exception):
    """The password is right, but the account is disabled (`pagechat users disable`)."""


class LoginThrottled(Exception):
    """Too many failed attempts for this email from this address."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many login attempts; retry in {retry_after} s")
        self.retry_after = retry_after


class PasswordLogin(abc.ABC):
    """An authenticator that can also exchange an email and password for a token."""

    @abc.abstractmethod
    async def login(
        self, *, email: str, password: str, client: str, user_agent: str | None = None
    ) -> str:
        """A new access token. Raises InvalidCredentials, LoginThrottled or AccountDisabled.

        `client` identifies where the attempt comes from (the remote address);
        `user_agent`, the program, is kept with the session for the admin's list.
        """
