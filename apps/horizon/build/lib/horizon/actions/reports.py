"""Server actions on a report's articles: star one, or save notes on it.

The report is the one in the data (`report_id`) or on the page; only the user's
own reports are found.
"""

from __future__ import annotations

from typing import Any

from pagechat.pages import ActionContext, ServerAction

from ..domain import ReportArticleUpdate, update_report_article
from .common import ActionFailed, ActionOutcome, action_scope, check_data, context_id

__all__ = [
    "SAVE_ARTICLE_NOTE",
    "SAVE_ARTICLE_NOTE_SCHEMA",
    "STAR_ARTICLE",
    "STAR_ARTICLE_SCHEMA",
    "save_article_note",
    "star_article",
]

_PMID: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 20}
# The bound of a SQL BIGINT: a larger id is bad input (422), not "no id given".
_REPORT_ID: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}

STAR_ARTICLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"pmid": _PMID, "report_id": _REPORT_ID, "starred": {"type": "boolean"}},
    "required": ["pmid"],
}
"""`{pmid, report_id?, starred?}`; `starred` defaults to true."""

SAVE_ARTICLE_NOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pmid": _PMID,
        "report_id": _REPORT_ID,
        "notes": {"type": "string", "maxLength": 10_000},
    },
    "required": ["pmid", "notes"],
}
"""`{pmid, notes, report_id?}`; the notes replace the article's notes in that report."""


async def _update(
    data: dict[str, Any], ctx: ActionContext, schema: dict[str, Any], update: ReportArticleUpdate
) -> ActionOutcome:
    try:
        check_data(schema, data)
        session, user_id = action_scope(ctx)
        report_id = context_id(data, ctx, "report_id", "report")
        if report_id is None:
            raise ActionFailed("Which report? The page sent no report_id.")
        pmid = str(data["pmid"]).strip()
        entry = await update_report_article(
            session=session, user_id=user_id, report_id=report_id, pmid=pmid, update=update
        )
        if entry is None:
            raise ActionFailed(f"PMID {pmid} is not in report {report_id}.")
        await session.commit()
    except ActionFailed as exc:
        return ActionOutcome(str(exc), ok=False)
    if update.notes is not None:
        message = f"Saved your notes on PMID {entry.pmid}."
    else:
        message = f"{'Starred' if entry.starred else 'Unstarred'} PMID {entry.pmid}."
    return ActionOutcome(message, entry.model_dump(mode="json"))


async def star_article(data: dict[str, Any], ctx: ActionContext) -> ActionOutcome:
    update = ReportArticleUpdate(starred=bool(data.get("starred", True)))
    return await _update(data, ctx, STAR_ARTICLE_SCHEMA, update)


async def save_article_note(data: dict[str, Any], ctx: ActionContext) -> ActionOutcome:
    notes = data.get("notes")
    update = ReportArticleUpdate(notes=notes if isinstance(notes, str) else "")
    return await _update(data, ctx, SAVE_ARTICLE_NOTE_SCHEMA, update)


STAR_ARTICLE = ServerAction(
    "star_article",
    "Star (or, with starred false, unstar) an article of the report (data: {pmid}).",
    star_article,
    data_schema=STAR_ARTICLE_SCHEMA,
)
SAVE_ARTICLE_NOTE = ServerAction(
    "save_article_note",
    "Save the user's notes on an article of the report (data: {pmid, notes}).",
    save_article_note,
    data_schema=SAVE_ARTICLE_NOTE_SCHEMA,
)
