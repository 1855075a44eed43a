"""Horizon's server actions: what the chat's action buttons do on the server.

Each handler checks its data (the payload schemas of `horizon.payloads`, or its
own for stars and notes), acts for `ctx.user_id` through `ctx.session`, commits,
and answers an `ActionOutcome` (`message`, `data`, `ok`). The page modules list
them in `server_actions=`.
"""

from .common import ActionOutcome
from .reports import (
    SAVE_ARTICLE_NOTE,
    SAVE_ARTICLE_NOTE_SCHEMA,
    STAR_ARTICLE,
    STAR_ARTICLE_SCHEMA,
    save_article_note,
    star_article,
)
from .streams import (
    APPLY_PRESENTATION_CATEGORIES,
    APPLY_RETRIEVAL_PROPOSAL,
    APPLY_SCHEMA_PROPOSAL,
    CREATE_STREAM_FROM_TEMPLATE,
    apply_presentation_categories,
    apply_retrieval_proposal,
    apply_schema_proposal,
    create_stream_from_template,
)

__all__ = [
    "APPLY_PRESENTATION_CATEGORIES",
    "APPLY_RETRIEVAL_PROPOSAL",
    "APPLY_SCHEMA_PROPOSAL",
    "CREATE_STREAM_FROM_TEMPLATE",
    "SAVE_ARTICLE_NOTE",
    "SAVE_ARTICLE_NOTE_SCHEMA",
    "STAR_ARTICLE",
    "STAR_ARTICLE_SCHEMA",
    "ActionOutcome",
    "apply_presentation_categories",
    "apply_retrieval_proposal",
    "apply_schema_proposal",
    "create_stream_from_template",
    "save_article_note",
    "star_article",
]
