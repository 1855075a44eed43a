"""Horizon's Alembic history: a branch of its own, depending on pagechat's.

Pass `VERSION_LOCATIONS` wherever pagechat migrates (`upgrade_async(...,
version_locations=VERSION_LOCATIONS)`, `create_app_from_settings(version_locations=...)`);
everything is upgraded to `heads`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["VERSION_LOCATIONS"]

VERSION_LOCATIONS: list[Path] = [Path(__file__).with_name("versions")]
