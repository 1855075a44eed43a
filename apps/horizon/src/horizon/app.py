"""Horizon's app: pagechat's server with Horizon's pages, tools, tables, routes and data.

    pagechat serve --app horizon.app:create_app
    uvicorn --factory horizon.app:create_app

Settings come from the environment (pagechat's, and Horizon's: `horizon.settings`).
At start the database is migrated (pagechat's history and Horizon's branch), an
empty article store is filled (the real PubMed files in the shared folder when
present, else the synthetic sample) and the demo account, if it exists, gets its
streams and reports. `VERSION_LOCATIONS` (Horizon's migrations) is here too, for
tools that migrate the app's database without starting it.
"""

from __future__ import annotations

from fastapi import FastAPI

from pagechat.pages import load_pages
from pagechat.server import ModelSource, create_app_from_settings
from pagechat.settings import Settings

from .api import ROUTERS
from .domain import startup_hook
from .migrations import VERSION_LOCATIONS
from .offline import OfflineModel
from .pages import PAGE_MODULES
from .settings import HorizonSettings
from .tools import register_horizon_tools

__all__ = ["VERSION_LOCATIONS", "create_app"]


def create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    """The Horizon app (a factory: settings are read when it is called).

    `model` replaces the one the settings select (tests pass a scripted one).
    """
    load_pages(PAGE_MODULES)
    register_horizon_tools()
    horizon = HorizonSettings()
    return create_app_from_settings(
        settings,
        model=model,
        version_locations=VERSION_LOCATIONS,
        routers=ROUTERS,
        on_startup=[startup_hook(horizon.shared_dir)],
        offline_model=OfflineModel,
    )
