"""Who is asking: the authenticated user as the rest of pagechat sees them."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Principal"]


@dataclass(frozen=True, slots=True)
class Principal:
    id: str
    email: str
    is_admin: bool = False
