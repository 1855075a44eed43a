"""Horizon's pages, registered as the app registers them."""

from __future__ import annotations

import importlib

import pytest

from horizon.pages import PAGE_MODULES
from pagechat.pages import get_page, load_pages


@pytest.fixture(autouse=True)
def horizon_pages() -> None:
    # A test elsewhere may have emptied the page registry; put the pages back the way
    # the app does, re-running a module whose page is gone.
    load_pages(PAGE_MODULES)
    for name in PAGE_MODULES:
        module = importlib.import_module(name)
        if get_page(module.PAGE.page) is not module.PAGE:
            importlib.reload(module)
