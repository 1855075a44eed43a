"""Horizon's own settings, from the environment (and a `.env` file), in one place.

| variable | meaning |
|---|---|
| `HORIZON_PUBMED` | `local` (default): search the article store; `eutils`: ask NCBI E-utilities |
| `NCBI_API_KEY` | E-utilities API key (10 requests a second instead of 3) |
| `NCBI_EMAIL` | the contact address NCBI asks tools to send |
| `HORIZON_EUTILS_URL` | E-utilities base URL (a mirror, or a fake server in tests) |
| `HORIZON_SHARED_DIR` | the folder holding `data/pubmed/corpus` (default `../shared`) |

Settings are read when they are needed, not at import, so a changed
environment takes effect on the next tool call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from .pubmed import DEFAULT_BASE_URL

__all__ = ["DEFAULT_SHARED_DIR", "HorizonSettings", "PubmedMode"]

PubmedMode = Literal["local", "eutils"]

DEFAULT_SHARED_DIR = Path("../shared")
"""Next to the repository: where `make run` (run from the checkout) finds the real data."""


class HorizonSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    pubmed: PubmedMode = Field(default="local", alias="HORIZON_PUBMED")
    ncbi_api_key: str | None = Field(default=None, alias="NCBI_API_KEY")
    ncbi_email: str | None = Field(default=None, alias="NCBI_EMAIL")
    eutils_url: str = Field(default=DEFAULT_BASE_URL, alias="HORIZON_EUTILS_URL")
    shared_dir: Path = Field(default=DEFAULT_SHARED_DIR, alias="HORIZON_SHARED_DIR")
