"""Everything page-specific a turn needs, decided once before the model is called."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..tools.choices import PRESENT_CHOICES
from ..tools.registry import global_tools
from ..tools.types import ToolConfig
from .config import RESERVED_MARKERS, PageConfig, PayloadConfig
from .context import render_page_context
from .neutralize import neutralize_markers
from .prompt import DEFAULT_BASE_INSTRUCTIONS, build_system_prompt, stable_prompt
from .registry import page_in

__all__ = ["TurnSetup", "prepare_turn"]


@dataclass(frozen=True)
class TurnSetup:
    """The page, prompt, tools and payloads of one turn.

    `context_text` is the page context exactly as the model saw it (after the
    budget): keep it with the turn for audit.
    """

    page: PageConfig
    active_tab: str | None
    system_prompt: str
    tools: list[ToolConfig]
    payloads: list[PayloadConfig]
    context_text: str
    context_truncated: bool
    cache_prefix: int = 0
    """How many leading characters of `system_prompt` are its stable part
    (`pages.prompt.stable_prompt`), the same on every turn on this page and tab."""

    @property
    def markers(self) -> tuple[str, ...]:
        """The markers to parse in the model's reply: the payloads', then the reserved ones."""
        return (*(p.parse_marker for p in self.payloads), *RESERVED_MARKERS)

    def seal(self, text: str) -> str:
        """Data for the model (a tool's result, the user's words): no marker of this turn,
        no tool marker and no choices fence in it can be parsed from a reply that copies it."""
        return neutralize_markers(text, self.markers)


def prepare_turn(
    context: dict[str, Any],
    *,
    is_admin: bool,
    base_instructions: str = DEFAULT_BASE_INSTRUCTIONS,
) -> TurnSetup:
    """Set up a turn from the page state the browser sent (`ChatRequest.context`).

    `context["current_page"]` picks the page (missing: the page-less default config;
    a name nobody registered: UnknownPage) and `context["active_tab"]` the tab.
    """
    page = page_in(context)
    active_tab = _text(context.get("active_tab"))
    payloads = list(page.payloads_for(active_tab))
    markers = (*(p.parse_marker for p in payloads), *RESERVED_MARKERS)
    context_text, truncated = render_page_context(page, context, markers=markers)
    prompt = build_system_prompt(
        base_instructions=base_instructions,
        page=page,
        active_tab=active_tab,
        context_text=context_text,
        payloads=payloads,
    )
    stable = stable_prompt(
        base_instructions=base_instructions, page=page, active_tab=active_tab, payloads=payloads
    )
    return TurnSetup(
        page=page,
        active_tab=active_tab,
        system_prompt=prompt,
        tools=_select_tools(page, active_tab, is_admin=is_admin),
        payloads=payloads,
        context_text=context_text,
        context_truncated=truncated,
        cache_prefix=len(stable),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _select_tools(page: PageConfig, active_tab: str | None, *, is_admin: bool) -> list[ToolConfig]:
    """Global tools, then the page's, then the tab's; a later one replaces an earlier
    one of the same name. Then the role check; `present_choices` is always offered."""
    tab = page.tab(active_tab)
    by_name: dict[str, ToolConfig] = {}
    for tool in (*global_tools(), *page.tools, *(tab.tools if tab else ())):
        by_name[tool.name] = tool
    tools = [t for t in by_name.values() if t.allowed_for(is_admin=is_admin)]
    if all(t.name != PRESENT_CHOICES.name for t in tools):
        tools.append(PRESENT_CHOICES)
    return tools
