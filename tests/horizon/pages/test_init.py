from __future__ import annotations

from horizon.pages import PAGE_MODULES, PAGE_NAMES
from pagechat.pages import get_page, load_pages


def test_loading_the_page_modules_registers_every_page() -> None:
    load_pages(PAGE_MODULES)
    for name in PAGE_NAMES:
        page = get_page(name)
        assert page.page == name
        assert page.context_builder is not None
        assert page.instructions
