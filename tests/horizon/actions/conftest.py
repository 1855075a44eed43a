"""Fixtures of the actions tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """SQLite only: these tests are about the layer above the database, whose queries the
    domain tests run on SQLite and PostgreSQL alike."""
    return sqlite_url
