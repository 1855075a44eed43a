"""Horizon's chat pages: one module per page, each registering its page when imported.

The app loads them once at start::

    from pagechat.pages import load_pages
    from horizon.pages import PAGE_MODULES

    load_pages(PAGE_MODULES)

Each module's docstring lists the context keys its web page sends; every page
writes that state with `horizon.page_text` (a stream with `horizon.page_state`),
which the offline model reads back.
Tools are not registered here: Horizon's tools are global (`register_tool`), or a
page module passes `tools=` / `TabConfig(tools=...)` for ones that belong to it.
"""

__all__ = ["PAGE_MODULES", "PAGE_NAMES"]

PAGE_MODULES: tuple[str, ...] = (
    "horizon.pages.streams",
    "horizon.pages.new_stream",
    "horizon.pages.edit_stream",
    "horizon.pages.reports",
    "horizon.pages.article",
)

PAGE_NAMES: tuple[str, ...] = ("streams", "new_stream", "edit_stream", "reports", "article")
"""The `current_page` values the web app sends, in the order of `PAGE_MODULES`."""
