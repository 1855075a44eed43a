"""Path parameters shared by Horizon's routes."""

from typing import Annotated

from fastapi import Path

__all__ = ["MAX_DB_ID", "DbId"]

MAX_DB_ID = 2**63 - 1
"""The largest integer key SQL databases hold (signed 64-bit): a larger id cannot exist,
and passing one to the database fails (a 500 before this bound), so it is a 422."""

DbId = Annotated[int, Path(ge=1, le=MAX_DB_ID)]
