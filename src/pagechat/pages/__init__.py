"""Page-aware chat: the page registry, the turn's prompt and tools, and parsing the reply.

An app's page module registers its page when imported::

    register_page(
        "edit_stream",
        payloads=[
            PayloadConfig.for_model(SchemaProposal, marker="SCHEMA_PROPOSAL:", instructions="...")
        ],
        context_builder=build_context,
        client_actions=[ClientAction("switch_tab", "Open another tab", ("tab_name",))],
        tabs=[TabConfig("retrieval", tools=(TEST_QUERY,))],
    )

(`SchemaProposal` a `Payload` model, `TEST_QUERY` a `@tool` function) and the app names
its page modules once: `load_pages(["myapp.pages.edit_stream", ...])`.
For each turn, `prepare_turn(request.context, is_admin=...)` gives the system prompt,
the tools and the payloads; a `ReplyParser` made from that setup turns the model's
text deltas into the text to show and, at the end, the payloads, suggestions and
actions of the reply.

A context builder reads the page state with `as_dict`, `as_list`, `as_id`, `as_number`
and `first`, which never raise on odd input; its text reaches the model inside the
prompt's page-context block (`PAGE_CONTEXT_TAG`), which `page_context_in` finds again.
"""

from ..payloads import Payload
from .chart import CHART_PAYLOAD
from .choices import ChoiceBlock, ChoiceOption, find_choice_blocks
from .config import (
    CLOSE_CHAT,
    DEFAULT_CONTEXT_BUDGET,
    SUGGESTED_ACTIONS_MARKER,
    SUGGESTED_VALUES_MARKER,
    ActionContext,
    ClientAction,
    ContextBuilder,
    PageConfig,
    PayloadConfig,
    ServerAction,
    ServerActionHandler,
    TabConfig,
)
from .context import (
    CLIENT_CONTEXT_KEY,
    CONTEXT_FAILED_NOTE,
    PAGE_CONTEXT_TAG,
    page_context_block,
    page_context_in,
)
from .neutralize import neutralize_tool_markers
from .parse import PageRef, ParsedReply, ReplyParser, parse_reply
from .prompt import DEFAULT_BASE_INSTRUCTIONS
from .registry import (
    UnknownPage,
    clear_pages,
    get_page,
    get_server_action,
    load_pages,
    page_in,
    page_names,
    register_page,
    registered_pages,
    restore_pages,
)
from .state import as_dict, as_id, as_list, as_number, first
from .stream import Judge, ReplyStreamFilter
from .turn import TurnSetup, prepare_turn

__all__ = [
    "CHART_PAYLOAD",
    "CLIENT_CONTEXT_KEY",
    "CLOSE_CHAT",
    "CONTEXT_FAILED_NOTE",
    "DEFAULT_BASE_INSTRUCTIONS",
    "DEFAULT_CONTEXT_BUDGET",
    "PAGE_CONTEXT_TAG",
    "SUGGESTED_ACTIONS_MARKER",
    "SUGGESTED_VALUES_MARKER",
    "ActionContext",
    "ChoiceBlock",
    "ChoiceOption",
    "ClientAction",
    "ContextBuilder",
    "Judge",
    "PageConfig",
    "PageRef",
    "ParsedReply",
    "Payload",
    "PayloadConfig",
    "ReplyParser",
    "ReplyStreamFilter",
    "ServerAction",
    "ServerActionHandler",
    "TabConfig",
    "TurnSetup",
    "UnknownPage",
    "as_dict",
    "as_id",
    "as_list",
    "as_number",
    "clear_pages",
    "find_choice_blocks",
    "first",
    "get_page",
    "get_server_action",
    "load_pages",
    "neutralize_tool_markers",
    "page_context_block",
    "page_context_in",
    "page_in",
    "page_names",
    "parse_reply",
    "prepare_turn",
    "register_page",
    "registered_pages",
    "restore_pages",
]
