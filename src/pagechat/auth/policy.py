"""What a password must be (NIST SP 800-63B §5.1.1.2): long enough, not a common one.

No composition rules (a digit, a symbol): they make passwords harder to remember,
not to guess. Length and a blocklist of the passwords attackers try first do
the work. The demo account (`pagechat users ensure-demo`, `demo`/`demo` for a local
first run) is made without this check, on purpose and by name.
"""

from __future__ import annotations

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "WeakPassword", "check_password"]

MIN_LENGTH = 8
MAX_LENGTH = 1024
"""argon2 takes any length; this bounds the work one login can ask for."""

# The most used passwords in public breach corpora (and their obvious kin): the first
# guesses of any attacker. Compared without case.
_COMMON = frozenset(
    [
        "123456",
        "12345678",
        "123456789",
        "1234567890",
        "12345678910",
        "1234567",
        "password",
        "password1",
        "password12",
        "password123",
        "passw0rd",
        "p@ssw0rd",
        "p@ssword",
        "qwerty",
        "qwerty123",
        "qwertyuiop",
        "qwerty12",
        "1q2w3e4r",
        "1q2w3e4r5t",
        "1qaz2wsx",
        "zaq12wsx",
        "asdfghjk",
        "asdfghjkl",
        "11111111",
        "00000000",
        "12341234",
        "87654321",
        "iloveyou",
        "iloveyou1",
        "abc12345",
        "abcd1234",
        "abcdefgh",
        "a1b2c3d4",
        "aa123456",
        "sunshine",
        "princess",
        "football",
        "baseball",
        "welcome",
        "welcome1",
        "welcome123",
        "letmein",
        "letmein1",
        "monkey123",
        "dragon123",
        "superman",
        "batman123",
        "trustno1",
        "changeme",
        "changeme1",
        "admin123",
        "administrator",
        "adminadmin",
        "master123",
        "whatever",
        "starwars",
        "computer",
        "internet",
        "shadow123",
        "michael1",
        "jennifer",
        "jordan23",
        "harley123",
        "hunter123",
        "freedom1",
        "mustang1",
        "charlie1",
        "access14",
        "secret123",
        "default1",
        "login123",
        "passpass",
        "testtest",
        "test1234",
        "guest123",
        "root1234",
        "qazwsxedc",
        "123qweasd",
        "qweasdzxc",
        "123123123",
        "112233445566",
        "147258369",
        "987654321",
        "666666666",
        "999999999",
        "123654789",
        "football1",
        "baseball1",
        "princess1",
        "sunshine1",
        "samsung1",
        "pokemon1",
        "chocolate",
    ]
)


class WeakPassword(ValueError):
    """The password is too easy to guess; the message says why, for the user."""


def check_password(password: str, *, email: str | None = None) -> None:
    """Raises WeakPassword when `password` may not be used (for the account `email`)."""
    if len(password) < MIN_LENGTH:
        raise WeakPassword(f"the password must have at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise WeakPassword(f"the password must have at most {MAX_LENGTH} characters")
    folded = password.casefold()
    if folded in _COMMON:
        raise WeakPassword("this password is one of the most common ones; choose another")
    if len(set(folded)) == 1:
        raise WeakPassword("the password must not be one character repeated")
    if email is not None and folded in {email.casefold(), email.casefold().split("@")[0]}:
        raise WeakPassword("the password must not be the email address")
